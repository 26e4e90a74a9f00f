import { describe, expect, it } from 'vitest';
import { ColliderscopeError, ParticleSystem, createHeadlessSandbox, currentScene, parseScene, runFixedSteps } from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

const small = {
  name: 'sparks-small',
  seed: 9,
  terrain: { cells: 32, worldSize: 128, heightScale: 20 },
  systems: { particles: { particles: 3000, budget: 60 } },
};

describe('the particles section', () => {
  it('saves edited effects: the saved scene, loaded again, runs the same frames (seed 9)', () => {
    const original = createHeadlessSandbox(parseScene(small, 'small.json'), { readField });
    const system = original.system('particles') as ParticleSystem;
    system.updateEffect(1, { rate: 900, spread: 20 });
    const saved = JSON.parse(JSON.stringify(currentScene(original, original.scene.camera))) as {
      systems: { particles: { effects: { rate: number }[] } };
    };
    expect(saved.systems.particles.effects[1]!.rate).toBe(900);
    const reloaded = createHeadlessSandbox(parseScene(saved, 'saved.json'), { readField });
    expect(runFixedSteps(reloaded, 20)).toBe(runFixedSteps(original, 20));
  });

  it.each([
    [{ kind: 'sparks', rate: Number.NaN }, /systems\.particles\.effects\[0\]\.rate: expected a number in \[0, 10000000\]/],
    [{ kind: 'smoke' }, /systems\.particles\.effects\[0\]\.kind/],
    [{ kind: 'sparks', colour: [300, 0, 0] }, /effects\[0\]\.colour/],
    [{ kind: 'sparks', glow: 1 }, /effects\[0\]\.glow: unknown field "glow"/],
  ])('refuses a bad effect %j naming the field', (effect, message) => {
    const scene = { ...small, systems: { particles: { effects: [effect] } } };
    expect(() => parseScene(scene, 'bad.json')).toThrow(ColliderscopeError);
    expect(() => parseScene(scene, 'bad.json')).toThrow(message);
  });
});
