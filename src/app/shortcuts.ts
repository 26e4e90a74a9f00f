import type { HelpRow, HelpSection } from '../ui/helpOverlay';
import type { Stage } from '../view/stage';

/** One entry of the page's shortcut table: what the help lists and what the key dispatch runs. */
export interface Shortcut {
  /** `event.key` values (symbols whose position varies by layout: ' ', '.', '?', 'ArrowLeft'…). */
  keys?: readonly string[];
  /** `event.code` values (letters by their place on the keyboard: 'KeyR'). */
  codes?: readonly string[];
  /** The keys as the help shows them. */
  label: string;
  /** What the key does, as the help says it. */
  what: string;
  /** The entry applies only while this holds; otherwise the key goes on to the next entry, or nowhere. */
  when?: () => boolean;
  run(event: KeyboardEvent): void;
}

/**
 * Keys a part of the page takes for itself while it is active: a walking character's WASD and Space,
 * the fly camera's WASD. While `active()` holds, the claim gets those keys before the shortcut table
 * (so Space jumps instead of pausing); the newest active claim wins over older ones. The key's release
 * goes to the claim that got its press, even when the claim is no longer active by then.
 */
export interface KeyClaim {
  /** Who claims the keys: the help's heading for its rows. */
  owner: string;
  /** `event.code` values claimed. */
  codes: readonly string[];
  /** The help's rows for these keys. */
  help: readonly HelpRow[];
  active(): boolean;
  down(event: KeyboardEvent): void;
  up?(event: KeyboardEvent): void;
  /** The window lost the keyboard (blur): forget every key held. */
  release?(): void;
}

/** What a feature sees of the shortcuts: a way to claim keys. */
export interface ShortcutClaims {
  /** Adds a claim; the function returned takes it back. */
  claim(claim: KeyClaim): () => void;
}

/** The event's target is a text field: its keys are typing, not shortcuts. */
function typing(target: EventTarget | null): boolean {
  const tag = (target as { tagName?: unknown } | null)?.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA';
}

/**
 * The page's keyboard: one shortcut table and the keys features claim, with one keydown and one keyup
 * listener. The same table and claims feed the help overlay (`help()`), so what the help lists is what
 * the keys do. Keys typed into text fields and Ctrl / Meta combinations are left to the browser.
 */
export class Shortcuts implements ShortcutClaims {
  private readonly claims: KeyClaim[] = [];
  /** Keys whose press went to a claim, so their release goes there too. */
  private readonly held = new Map<string, KeyClaim>();

  constructor(private readonly table: readonly Shortcut[]) {}

  claim(claim: KeyClaim): () => void {
    this.claims.push(claim);
    return () => {
      const index = this.claims.indexOf(claim);
      if (index >= 0) this.claims.splice(index, 1);
      for (const [code, owner] of this.held) if (owner === claim) this.held.delete(code);
    };
  }

  /** Listens on the window (keydown, keyup, blur). */
  listen(target: Pick<Window, 'addEventListener'>): void {
    target.addEventListener('keydown', (event) => this.keyDown(event));
    target.addEventListener('keyup', (event) => this.keyUp(event));
    target.addEventListener('blur', () => this.releaseAll());
  }

  /** Dispatches a key press; true (and its default prevented) when a claim or a shortcut took it. */
  keyDown(event: KeyboardEvent): boolean {
    if (typing(event.target) || event.ctrlKey || event.metaKey) return false;
    const claim = this.activeClaim(event.code);
    if (claim !== undefined) {
      // A held key repeating into another claim: the first one sees it released.
      const holder = this.held.get(event.code);
      if (holder !== undefined && holder !== claim) holder.up?.(event);
      this.held.set(event.code, claim);
      claim.down(event);
      event.preventDefault();
      return true;
    }
    const shortcut = this.shortcutFor(event);
    if (shortcut === undefined) return false;
    shortcut.run(event);
    event.preventDefault();
    return true;
  }

  keyUp(event: KeyboardEvent): void {
    const claim = this.held.get(event.code);
    if (claim === undefined) return;
    this.held.delete(event.code);
    claim.up?.(event);
  }

  releaseAll(): void {
    this.held.clear();
    for (const claim of this.claims) claim.release?.();
  }

  /** The active claim of this key, newest first. */
  activeClaim(code: string): KeyClaim | undefined {
    for (let i = this.claims.length - 1; i >= 0; i--) {
      const claim = this.claims[i]!;
      if (claim.codes.includes(code) && claim.active()) return claim;
    }
    return undefined;
  }

  private shortcutFor(event: KeyboardEvent): Shortcut | undefined {
    return this.table.find(
      (s) => (s.keys?.includes(event.key) === true || s.codes?.includes(event.code) === true) && (s.when === undefined || s.when()),
    );
  }

  /** The help overlay's sections: the table (one row per label), then each owner's claimed keys. */
  help(): HelpSection[] {
    const table = new Map<string, HelpRow>();
    for (const s of this.table) if (!table.has(s.label)) table.set(s.label, { keys: s.label, what: s.what });
    const owners = new Map<string, HelpRow[]>();
    for (const claim of this.claims) owners.set(claim.owner, [...(owners.get(claim.owner) ?? []), ...claim.help]);
    return [{ rows: [...table.values()] }, ...[...owners].map(([title, rows]) => ({ title, rows }))];
  }
}

/** What the page's shortcut table asks of the app. */
export interface PageActions {
  togglePause(): void;
  step(): void;
  stepBack(): void;
  restart(): void;
  slower(): void;
  faster(): void;
  toggleRecording(): void;
  benchmark(): void;
  screenshot(): void;
  toggleVideo(): void;
  fullscreen(): void;
  presenter(): void;
  /** Previous (-1) or next (+1) scene: a slide in presenter mode. */
  changeScene(offset: number): void;
  toggleCamera(): void;
  toggleWireframe(): void;
  toggleHud(): void;
  help(): void;
  /** Whether Esc has something to close (help, a dialog, presenter mode). */
  canClose(): boolean;
  /** Closes the topmost of them. */
  close(): void;
}

/** The page's shortcuts, in the order the help lists them. */
export function pageShortcuts(page: PageActions): Shortcut[] {
  return [
    { keys: [' '], label: 'Space', what: 'pause / run', run: () => page.togglePause() },
    { keys: ['.'], label: '.', what: 'single step (while paused)', run: () => page.step() },
    { keys: [','], label: ',', what: 'step back one frame', run: () => page.stepBack() },
    { codes: ['KeyR'], label: 'R', what: 'restart with the same seed', run: () => page.restart() },
    { keys: ['-'], label: '− / =', what: 'slower / faster (time scale)', run: () => page.slower() },
    { keys: ['=', '+'], label: '− / =', what: 'slower / faster (time scale)', run: () => page.faster() },
    { codes: ['KeyK'], label: 'K', what: 'start / stop recording timings and counters', run: () => page.toggleRecording() },
    { codes: ['KeyB'], label: 'B', what: 'benchmark the current scene', run: () => page.benchmark() },
    { codes: ['KeyC'], label: 'C', what: 'screenshot (PNG)', run: () => page.screenshot() },
    { codes: ['KeyV'], label: 'V', what: 'start / stop video capture', run: () => page.toggleVideo() },
    { codes: ['KeyX'], label: 'X', what: 'fullscreen', run: () => page.fullscreen() },
    { codes: ['KeyP'], label: 'P', what: 'presenter mode (panels hidden, scenes as slides)', run: () => page.presenter() },
    { keys: ['ArrowLeft', 'PageUp'], label: '← / →, PgUp / PgDn', what: 'previous / next scene', run: () => page.changeScene(-1) },
    { keys: ['ArrowRight', 'PageDown'], label: '← / →, PgUp / PgDn', what: 'previous / next scene', run: () => page.changeScene(1) },
    { codes: ['KeyF'], label: 'F', what: 'orbit / fly camera (fly: drag to look)', run: () => page.toggleCamera() },
    { codes: ['KeyG'], label: 'G', what: 'wireframe', run: () => page.toggleWireframe() },
    { codes: ['KeyH'], label: 'H', what: 'timing panel', run: () => page.toggleHud() },
    { keys: ['?'], label: '?', what: 'this help', run: () => page.help() },
    { keys: ['Escape'], label: 'Esc', what: 'close dialogs, leave presenter mode', when: () => page.canClose(), run: () => page.close() },
  ];
}

export const FLY_CAMERA_OWNER = 'Fly camera (F)';

/** The fly camera's keys: claimed by the page (before any feature, so a feature's claim wins) while the camera flies. */
export function flyCameraClaim(stage: Stage): KeyClaim {
  return {
    owner: FLY_CAMERA_OWNER,
    codes: ['KeyW', 'KeyA', 'KeyS', 'KeyD', 'KeyQ', 'KeyE', 'ShiftLeft', 'ShiftRight'],
    help: [
      { keys: 'W A S D', what: 'move' },
      { keys: 'Q / E', what: 'down / up' },
      { keys: 'Shift', what: 'faster' },
    ],
    active: () => stage.cameraMode === 'fly',
    down: (event) => stage.fly.press(event.code),
    up: (event) => stage.fly.release(event.code),
    release: () => stage.fly.releaseAll(),
  };
}
