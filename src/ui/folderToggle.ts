import type GUI from 'lil-gui';

/** How long a folder's open or close animation runs (lil-gui's stylesheet sets the same transition). */
const FOLDER_ANIMATION_MS = 300;

/**
 * Opens and closes the panel's folders with an animation that always ends at the natural height.
 *
 * lil-gui measures and sets a folder's heights in animation frames and clears the fixed height on
 * `transitionend`. On a busy machine those frames come late or the transition never runs, and the
 * folder keeps a fixed height, so its content draws over the folders below. Here every height is set
 * inside the click itself (a forced layout in between starts the transition), and a timer settles
 * the folder even when `transitionend` never fires. Title clicks are taken in the capture phase, so
 * lil-gui's own handler never runs; keyboard activation of the title button is a click too.
 */
export function toggleFoldersReliably(root: GUI): void {
  const tokens = new WeakMap<GUI, number>();
  root.domElement.addEventListener(
    'click',
    (event) => {
      const title = event.target instanceof Element ? event.target.closest('.lil-title') : null;
      if (title === null) return;
      const folder = [root, ...root.foldersRecursive()].find((candidate) => candidate.$title === title);
      if (folder === undefined) return;
      event.stopPropagation();
      const token = (tokens.get(folder) ?? 0) + 1;
      tokens.set(folder, token);
      animateFolder(folder, folder._closed, () => tokens.get(folder) === token);
    },
    { capture: true },
  );
}

function animateFolder(folder: GUI, open: boolean, isCurrent: () => boolean): void {
  const children = folder.$children;
  const startHeight = children.clientHeight;
  if (open) folder.open();
  else folder.close();
  children.style.height = `${startHeight}px`;
  folder.domElement.classList.add('lil-transition');
  // Reading the layout commits the start height, so the next assignment animates from it.
  const targetHeight = open ? children.scrollHeight : 0;
  children.style.height = `${targetHeight}px`;
  const settle = (): void => {
    if (!isCurrent()) return; // a later click on this folder owns the animation now
    children.style.height = '';
    folder.domElement.classList.remove('lil-transition');
    children.removeEventListener('transitionend', onTransitionEnd);
  };
  const onTransitionEnd = (event: TransitionEvent): void => {
    if (event.target === children && event.propertyName === 'height') settle();
  };
  children.addEventListener('transitionend', onTransitionEnd);
  window.setTimeout(settle, FOLDER_ANIMATION_MS + 100);
}
