import { describe, expect, it } from 'vitest';
import { TimingRing } from '../../../src/core';
import { FrameStack, OTHER_KEY } from '../../../src/ui/frameStack';
import { GROUP_COLOURS, phaseColour, phaseGroup } from '../../../src/ui/phaseColours';
import { profileLayout } from '../../../src/ui/profileLayout';
import { benchmarkChart } from '../../../src/ui/benchmarkChart';

describe('phase colours', () => {
  it('give a phase one colour whatever else was recorded, and a system its colour in all its rows', () => {
    expect(phaseGroup('step.actors')).toBe('actors');
    expect(phaseGroup('view.actors')).toBe('actors');
    expect(phaseGroup('actors.solve')).toBe('actors');
    expect(phaseGroup('render')).toBe('render');
    expect(phaseColour('render')).toBe(GROUP_COLOURS.render);
    expect(phaseColour('step.actors')).toBe(GROUP_COLOURS.actors);
    expect(phaseColour('view.actors')).toBe(GROUP_COLOURS.actors);
    // A sub-phase: a shade of its system's colour, the same every time.
    expect(phaseColour('actors.solve')).toMatch(/^#[0-9a-f]{6}$/);
    expect(phaseColour('actors.solve')).toBe(phaseColour('actors.solve'));
    // An unknown system still gets a colour of its own, from its name.
    expect(phaseColour('step.somethingNew')).toBe(phaseColour('somethingNew'));
    expect(phaseColour('step.somethingNew')).not.toBe(phaseColour('step.otherThing'));
  });
});

describe('profile layout', () => {
  it('groups per-frame phases by system in a fixed order, events apart, whatever the recording order', () => {
    const events = new Set(['terrain.generate', 'bvh.build', 'rayEmitters.prepare']);
    const phases = [
      'terrain.generate',
      'render',
      'step.particles',
      'particles.move',
      'bvh.build',
      'step',
      'frame',
      'view.particles',
      'step.actors',
      'actors.solve',
      'rayEmitters.prepare',
      'view.bvh',
      'bvh.heatmap',
    ];
    const layout = profileLayout(phases, (p) => events.has(p));
    const shuffled = profileLayout([...phases].reverse(), (p) => events.has(p));
    expect(layout.groups.map((g) => g.group)).toEqual(['actors', 'particles', 'bvh', 'render']);
    expect(shuffled.groups.map((g) => g.group)).toEqual(['actors', 'particles', 'bvh', 'render']);
    expect(layout.groups[1]).toEqual({ group: 'particles', parts: ['step.particles', 'view.particles'], details: ['particles.move'] });
    expect(layout.groups[2]).toEqual({ group: 'bvh', parts: ['view.bvh'], details: ['bvh.heatmap'] });
    expect(layout.events).toEqual(['terrain.generate', 'bvh.build', 'rayEmitters.prepare']);
  });

  it('stacks a group that has no step or view of its own by its phases', () => {
    const layout = profileLayout(['cracks.bvh', 'cracks.edge'], () => false);
    expect(layout.groups).toEqual([{ group: 'cracks', parts: ['cracks.bvh', 'cracks.edge'], details: [] }]);
  });
});

describe('frame stack', () => {
  it('lines phases up on the frames they were recorded in, and keeps the rest of the frame as other', () => {
    const ring = new TimingRing(16);
    const stack = new FrameStack(8);
    // Frame 1: the system steps (2 ms inside it: 1.5), the render takes 3, the frame 6.
    ring.record('step.actors', 2);
    ring.record('actors.solve', 1.5);
    ring.record('render', 3);
    ring.record('frame', 6);
    stack.sample(ring);
    // Frame 2: paused, no step; render 4, frame 5.
    ring.record('render', 4);
    ring.record('frame', 5);
    stack.sample(ring);
    expect(stack.keys).toEqual(['actors', 'render', OTHER_KEY]);
    expect(stack.value('actors', 0)).toBe(0);
    expect(stack.value('actors', 1)).toBe(2);
    expect(stack.value('render', 0)).toBe(4);
    expect(stack.value(OTHER_KEY, 0)).toBe(1);
    expect(stack.value(OTHER_KEY, 1)).toBe(1);
    expect(stack.total(0)).toBe(5);
    expect(stack.total(1)).toBe(6);
    expect(stack.stats('frame')).toEqual({ now: 5, avg: 5.5, max: 6, count: 2 });
    expect(stack.stats('actors')).toEqual({ now: 0, avg: 1, max: 2, count: 2 });
    // A cleared ring (a restart) starts counting again: new samples still count.
    ring.clear();
    ring.record('render', 2);
    ring.record('frame', 2);
    stack.sample(ring);
    expect(stack.value('render', 0)).toBe(2);
  });
});

describe('benchmark chart', () => {
  it('shows each system per frame, the whole frame, then the finer phases, with their numbers', () => {
    const row = (phase: string, median: number) => ({ phase, frames: 20, mean: median, median, p95: median * 1.5, min: median / 2, max: median * 2 });
    const chart = benchmarkChart([row('step', 2), row('step.actors', 2), row('actors.solve', 1), row('render', 3), row('frame', 6)]);
    expect(chart.groups.map((g) => g.bars.map((b) => b.label))).toEqual([['actors step', 'render', 'whole frame'], ['actors.solve']]);
    expect(chart.groups[0]!.bars[1]).toMatchObject({ value: 3, low: 1.5, high: 4.5, text: '3.00 ms (p95 4.50)' });
  });

  it('leaves out the idle views of systems that took no step, and keeps a view that draws', () => {
    const row = (phase: string, median: number) => ({ phase, frames: 20, mean: median, median, p95: median * 1.5, min: median / 2, max: median * 2 });
    const chart = benchmarkChart([
      row('step.capsules', 1.2),
      row('view.capsules', 0.01),
      row('view.actors', 0.01),
      row('view.wind', 0.01),
      row('view.bvh', 0.4),
      row('render', 2),
      row('frame', 4),
    ]);
    expect(chart.groups[0]!.bars.map((b) => b.label)).toEqual(['capsules step', 'capsules view', 'bvh view', 'render', 'whole frame']);
  });
});
