import { describe, expect, it } from 'vitest';
import { Gestures, claimCameraGestures, modifierOf } from '../../../src/app/gestures';

const keys = (held: string): { shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean } => ({
  shiftKey: held.includes('shift'),
  altKey: held.includes('alt'),
  ctrlKey: held.includes('ctrl'),
  metaKey: held.includes('meta'),
});

describe('the gesture table', () => {
  it('lets a click and a drag share a modifier, but refuses a gesture claimed twice', () => {
    const gestures = new Gestures();
    claimCameraGestures(gestures);
    const isClick = gestures.claim({ owner: 'BVH', modifier: '', kind: 'click', what: 'cast a ray' });
    gestures.claim({ owner: 'capsule probe', modifier: 'Alt', kind: 'press-drag', what: 'move the start' });
    expect(() => gestures.claim({ owner: 'ray emitter', modifier: 'Alt', kind: 'click', what: 'move the emitter' })).toThrow(
      /Alt\+click is claimed twice: by capsule probe .* and by ray emitter/,
    );
    expect(() => gestures.claim({ owner: 'box probe', modifier: '', kind: 'wheel', what: 'resize' })).toThrow(/wheel is claimed twice/);
    gestures.claim({ owner: 'ray emitter', modifier: 'Ctrl', kind: 'click', what: 'move the emitter' });
    gestures.claim({ owner: 'box probe', modifier: 'Shift', kind: 'wheel', what: 'resize' });
    expect(isClick(keys(''))).toBe(true);
    expect(isClick(keys('shift'))).toBe(false);
    expect(gestures.help().rows.map((row) => row.keys)).toEqual(['drag', 'right-drag', 'wheel', 'click', 'Alt+drag', 'Ctrl+click', 'Shift+wheel']);
  });

  it('reads modifiers as the table spells them', () => {
    expect(modifierOf(keys('alt+shift'))).toBe('Alt+Shift');
    expect(modifierOf(keys('meta'))).toBe('Ctrl');
    expect(modifierOf(keys('ctrl+shift'))).toBe('Ctrl+Shift');
    expect(modifierOf(keys('meta+shift'))).toBe('Ctrl+Shift');
    expect(modifierOf(keys('shift'))).toBe('Shift');
    expect(modifierOf(keys(''))).toBe('');
  });
});
