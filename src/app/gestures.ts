import type { HelpSection } from '../ui/helpOverlay';

/** The modifier keys held with a mouse or touch gesture. */
export type GestureModifier = '' | 'Shift' | 'Alt' | 'Ctrl' | 'Alt+Shift' | 'Ctrl+Shift';

/**
 * 'click': acts on a press and release without movement (a drag with the same modifier is someone
 * else's); 'drag': acts on movement; 'press-drag': acts from the press on, so it owns the click too;
 * 'wheel': the wheel or a pinch.
 */
export type GestureKind = 'click' | 'drag' | 'press-drag' | 'wheel';

export interface GestureClaim {
  /** Who acts on the gesture (the help's first column names it). */
  owner: string;
  modifier: GestureModifier;
  kind: GestureKind;
  /** What the gesture does, as the help says it. */
  what: string;
  /** Mouse button: 0 left (default), 2 right. */
  button?: 0 | 2;
}

const KIND_NAMES: Readonly<Record<GestureKind, string>> = { click: 'click', drag: 'drag', 'press-drag': 'drag', wheel: 'wheel' };

/** The modifiers of a pointer or wheel event, as the table spells them (Meta counts as Ctrl, for macOS). */
export function modifierOf(event: { shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): GestureModifier {
  if (event.altKey) return event.shiftKey ? 'Alt+Shift' : 'Alt';
  if (event.ctrlKey || event.metaKey) return event.shiftKey ? 'Ctrl+Shift' : 'Ctrl';
  return event.shiftKey ? 'Shift' : '';
}

/**
 * The page's one table of mouse and touch gestures: the camera's own, then every feature's. A gesture
 * claimed twice (the same modifier, button and kind; or a click under a drag that starts on the press)
 * is an error at install, so no gesture ever does two things; the help overlay lists the table.
 */
export class Gestures {
  private readonly claims: GestureClaim[] = [];

  /** Adds a claim and returns its test: whether an event carries the claimed modifiers. */
  claim(claim: GestureClaim): (event: { shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }) => boolean {
    const clash = this.claims.find((other) => clashes(other, claim));
    if (clash !== undefined) {
      throw new Error(`${label(claim)} is claimed twice: by ${clash.owner} (${clash.what}) and by ${claim.owner} (${claim.what})`);
    }
    this.claims.push(claim);
    return (event) => modifierOf(event) === claim.modifier;
  }

  /** The help overlay's section: one row per gesture. */
  help(): HelpSection {
    return { title: 'Mouse and touch', rows: this.claims.map((claim) => ({ keys: label(claim), what: `${claim.owner}: ${claim.what}` })) };
  }
}

function label(claim: GestureClaim): string {
  const gesture = `${claim.button === 2 ? 'right-' : ''}${KIND_NAMES[claim.kind]}`;
  return claim.modifier === '' ? gesture : `${claim.modifier}+${gesture}`;
}

function clashes(a: GestureClaim, b: GestureClaim): boolean {
  if (a.modifier !== b.modifier || (a.button ?? 0) !== (b.button ?? 0)) return false;
  if (a.kind === 'wheel' || b.kind === 'wheel') return a.kind === b.kind;
  if (a.kind === b.kind) return true;
  // A drag that acts from the press also takes the click; a plain drag and a click share the button.
  return a.kind === 'press-drag' || b.kind === 'press-drag' || (a.kind === 'drag' && b.kind === 'drag');
}

/** The camera's gestures, claimed by the page before any feature. */
export function claimCameraGestures(gestures: Gestures): void {
  gestures.claim({ owner: 'camera', modifier: '', kind: 'drag', what: 'orbit (fly camera: look around)' });
  gestures.claim({ owner: 'camera', modifier: '', kind: 'drag', button: 2, what: 'pan' });
  gestures.claim({ owner: 'camera', modifier: '', kind: 'wheel', what: 'zoom' });
}
