import { describe, expect, it } from 'vitest';
import { Shortcuts, pageShortcuts, type KeyClaim, type PageActions } from '../../../src/app/shortcuts';

/** A key event as the dispatch reads it (Node has no KeyboardEvent). */
function key(code: string, key = '', extra: { target?: unknown; ctrlKey?: boolean; metaKey?: boolean } = {}) {
  const event = { code, key, target: extra.target ?? null, ctrlKey: extra.ctrlKey ?? false, metaKey: extra.metaKey ?? false, prevented: false };
  return Object.assign(event, { preventDefault: () => (event.prevented = true) }) as unknown as KeyboardEvent & { prevented: boolean };
}

function page() {
  const calls: string[] = [];
  let closable = false;
  const actions = new Proxy({} as PageActions, {
    get: (_, name: string) => {
      if (name === 'canClose') return () => closable;
      return (arg?: number | string) => calls.push(arg === undefined ? name : `${name}(${arg})`);
    },
  });
  const shortcuts = new Shortcuts(pageShortcuts(actions));
  return { shortcuts, calls, setClosable: (on: boolean) => (closable = on) };
}

function claim(owner: string, codes: string[], log: string[], active: () => boolean): KeyClaim {
  return {
    owner,
    codes,
    help: [{ keys: codes.join(' '), what: `${owner} keys` }],
    active,
    down: (event) => log.push(`${owner} down ${event.code}`),
    up: (event) => log.push(`${owner} up ${event.code}`),
    release: () => log.push(`${owner} released`),
  };
}

describe('Shortcuts', () => {
  it('runs the table entry of a key (by key or by code) and prevents its default', () => {
    const { shortcuts, calls } = page();
    const space = key('Space', ' ');
    expect(shortcuts.keyDown(space)).toBe(true);
    expect(space.prevented).toBe(true);
    shortcuts.keyDown(key('KeyR', 'r'));
    shortcuts.keyDown(key('Minus', '-'));
    shortcuts.keyDown(key('Equal', '+'));
    shortcuts.keyDown(key('PageDown', 'PageDown'));
    shortcuts.keyDown(key('Slash', '?'));
    expect(calls).toEqual(['togglePause', 'restart', 'slower', 'faster', 'changeScene(1)', 'help']);
    const other = key('KeyZ', 'z');
    expect(shortcuts.keyDown(other)).toBe(false);
    expect(other.prevented).toBe(false);
  });

  it('leaves keys typed into text fields and Ctrl / Meta combinations alone', () => {
    const { shortcuts, calls } = page();
    expect(shortcuts.keyDown(key('Space', ' ', { target: { tagName: 'INPUT' } }))).toBe(false);
    expect(shortcuts.keyDown(key('KeyR', 'r', { target: { tagName: 'TEXTAREA' } }))).toBe(false);
    expect(shortcuts.keyDown(key('KeyR', 'r', { ctrlKey: true }))).toBe(false);
    expect(shortcuts.keyDown(key('KeyC', 'c', { metaKey: true }))).toBe(false);
    expect(calls).toEqual([]);
  });

  it('takes Esc only while there is something to close', () => {
    const { shortcuts, calls, setClosable } = page();
    const first = key('Escape', 'Escape');
    expect(shortcuts.keyDown(first)).toBe(false);
    expect(first.prevented).toBe(false);
    setClosable(true);
    expect(shortcuts.keyDown(key('Escape', 'Escape'))).toBe(true);
    expect(calls).toEqual(['close']);
  });

  it('gives claimed keys to the newest active claim, before the table; the release goes where the press went', () => {
    const { shortcuts, calls } = page();
    const log: string[] = [];
    let flying = true;
    let walking = false;
    shortcuts.claim(claim('fly', ['KeyW', 'ShiftLeft'], log, () => flying));
    const unclaim = shortcuts.claim(claim('walker', ['KeyW', 'Space'], log, () => walking));

    shortcuts.keyDown(key('KeyW', 'w'));
    walking = true;
    shortcuts.keyUp(key('KeyW', 'w')); // pressed while flying: released to the fly camera
    shortcuts.keyDown(key('KeyW', 'w'));
    shortcuts.keyDown(key('Space', ' ')); // jumps, does not pause
    shortcuts.keyDown(key('ShiftLeft', 'Shift')); // the walker does not claim Shift
    walking = false;
    shortcuts.keyUp(key('KeyW', 'w'));
    shortcuts.keyDown(key('Space', ' ')); // the walker stopped: Space pauses again
    flying = false;
    shortcuts.keyDown(key('KeyW', 'w')); // nobody's
    shortcuts.keyUp(key('KeyQ', 'q'));
    expect(log).toEqual(['fly down KeyW', 'fly up KeyW', 'walker down KeyW', 'walker down Space', 'fly down ShiftLeft', 'walker up KeyW']);
    expect(calls).toEqual(['togglePause']);

    // A key held down while the walker starts (its repeats go to the walker): the fly camera lets go.
    flying = true;
    shortcuts.keyDown(key('KeyW', 'w'));
    walking = true;
    shortcuts.keyDown(key('KeyW', 'w'));
    shortcuts.keyUp(key('KeyW', 'w'));
    expect(log.slice(-4)).toEqual(['fly down KeyW', 'fly up KeyW', 'walker down KeyW', 'walker up KeyW']);
    walking = false;
    flying = false;

    shortcuts.releaseAll();
    expect(log.slice(-2)).toEqual(['fly released', 'walker released']);
    unclaim();
    walking = true;
    shortcuts.keyDown(key('Space', ' '));
    expect(calls).toEqual(['togglePause', 'togglePause']);
  });

  it('feeds the help: the table once per label, then each owner’s claimed keys under its name', () => {
    const { shortcuts } = page();
    shortcuts.claim(claim('Fly camera', ['KeyW'], [], () => false));
    shortcuts.claim(claim('Character', ['KeyW', 'Space'], [], () => false));
    const [table, ...owners] = shortcuts.help();
    expect(table!.title).toBeUndefined();
    const labels = table!.rows.map((row) => row.keys);
    expect(labels.slice(0, 3)).toEqual(['Space', '.', ',']);
    expect(labels.filter((label) => label === '− / =')).toHaveLength(1);
    expect(labels).toContain('Esc');
    expect(table!.rows.find((row) => row.keys === 'Space')!.what).toBe('pause / run');
    expect(owners).toEqual([
      { title: 'Fly camera', rows: [{ keys: 'KeyW', what: 'Fly camera keys' }] },
      { title: 'Character', rows: [{ keys: 'KeyW Space', what: 'Character keys' }] },
    ]);
  });
});
