import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FrameRecorder, Sandbox, StateHistory, TimingRing, WindField, WindTracers, parseScene, type SimSystem } from '../../../src/core';

const whirl = readFileSync(new URL('../../../scenes/fields/whirl.vf', import.meta.url), 'utf8');
const scene = () => parseScene({ name: 'replay', seed: 5, terrain: { cells: 32 } });

function windSandbox(historyFrames: number): { sandbox: Sandbox; tracers: WindTracers } {
  const sandbox = new Sandbox(scene(), undefined, 120, historyFrames);
  const field = new WindField();
  field.add('whirl', whirl, [0, 10, 0], Infinity);
  const tracers = new WindTracers(field, 500, 7);
  sandbox.addSystem(tracers);
  return { sandbox, tracers };
}

describe('StateHistory', () => {
  it('pops newest first and drops the oldest past its capacity', () => {
    const history = new StateHistory<number>(3);
    for (let i = 1; i <= 5; i++) history.push(i);
    expect(history.length).toBe(3);
    expect([history.pop(), history.pop(), history.pop(), history.pop()]).toEqual([5, 4, 3, undefined]);
    const none = new StateHistory<number>(0);
    none.push(1);
    expect(none.pop()).toBeUndefined();
    expect(() => new StateHistory(-1)).toThrow(RangeError);
  });
});

describe('Sandbox replay', () => {
  it('steps back to exactly the state of earlier frames, and replays them identically', () => {
    const { sandbox, tracers } = windSandbox(30);
    const snapshots: Float32Array[] = [];
    for (let i = 0; i < 20; i++) {
      snapshots.push(tracers.positions.slice());
      sandbox.step(1 / 60);
    }
    const after20 = tracers.positions.slice();
    for (let back = 19; back >= 12; back--) {
      expect(sandbox.stepBack()).toBe(true);
      expect(sandbox.frame).toBe(back);
      expect(tracers.positions).toEqual(snapshots[back]);
    }
    for (let i = 12; i < 20; i++) sandbox.step(1 / 60);
    expect(tracers.positions).toEqual(after20);
  });

  it('restarts from frame 0 with the same seed: the same run again', () => {
    const { sandbox, tracers } = windSandbox(0);
    for (let i = 0; i < 15; i++) sandbox.step(1 / 60);
    const first = tracers.positions.slice();
    expect(sandbox.restart()).toBe(true);
    expect(sandbox.frame).toBe(0);
    expect(sandbox.time).toBe(0);
    for (let i = 0; i < 15; i++) sandbox.step(1 / 60);
    expect(tracers.positions).toEqual(first);
  });

  it('refuses to step back past its history or when a system cannot save its state', () => {
    const { sandbox } = windSandbox(2);
    for (let i = 0; i < 5; i++) sandbox.step(1 / 60);
    expect(sandbox.stepBack()).toBe(true);
    expect(sandbox.stepBack()).toBe(true);
    expect(sandbox.stepBack()).toBe(false);
    expect(sandbox.frame).toBe(3);
    const stateless: SimSystem = { name: 'stateless', step: () => undefined, metrics: () => ({}), hash: () => undefined, section: () => ({}) };
    sandbox.addSystem(stateless);
    sandbox.step(1 / 60);
    expect(sandbox.rewindable).toBe(false);
    expect(sandbox.stepBack()).toBe(false);
    expect(sandbox.frame).toBe(4);
  });
});

describe('TimingRing warm-up and switch', () => {
  it('drops the first samples of each phase after a clear, and records nothing while disabled', () => {
    const ring = new TimingRing(10, 2);
    for (const ms of [50, 40, 1, 2, 3]) ring.record('step', ms);
    expect(ring.stats('step').max).toBe(3);
    expect(ring.keptCount('step')).toBe(3);
    ring.enabled = false;
    ring.record('step', 99);
    expect(ring.latest('step')).toBe(3);
    ring.enabled = true;
    ring.clear();
    ring.record('step', 70);
    expect(ring.stats('step').count).toBe(0);
  });
});

describe('FrameRecorder', () => {
  it('exports one CSV row per recorded frame with every phase and counter, and a JSON with the settings', () => {
    const { sandbox } = windSandbox(0);
    sandbox.step(1 / 60); // before recording: not in the export
    const recorder = new FrameRecorder();
    recorder.start({ scene: 'replay', seed: 5, settings: { tracers: 500 }, machine: { cores: 2 }, startedAt: 'now' }, sandbox);
    for (let i = 0; i < 12; i++) {
      sandbox.step(1 / 60);
      if (i === 4) sandbox.timings.record('rebuild', 7.5); // a phase that runs once
      recorder.capture(sandbox, { 'probe.rays': i });
    }
    recorder.stop();
    sandbox.step(1 / 60);
    recorder.capture(sandbox);
    const lines = recorder.toCsv().trim().split('\n');
    expect(lines).toHaveLength(13);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 2)).toEqual(['frame', 'time']);
    expect(header).toContain('step ms');
    expect(header).toContain('step.tracers ms');
    expect(header).toContain('tracers.tracers');
    expect(header).toContain('probe.rays');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((r) => Number(r[0]))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const rebuild = header.indexOf('rebuild ms');
    expect(rows.filter((r) => r[rebuild] !== '').map((r) => r[rebuild])).toEqual(['7.5']);
    const stepColumn = header.indexOf('step ms');
    for (const r of rows) expect(Number(r[stepColumn])).toBeGreaterThan(0);
    const json = JSON.parse(recorder.toJson()) as { info: { settings: unknown }; frames: unknown[]; summary: { phase: string; frames: number }[] };
    expect(json.info.settings).toEqual({ tracers: 500 });
    expect(json.frames).toHaveLength(12);
    expect(json.summary.find((s) => s.phase === 'step')!.frames).toBe(12);
    expect(recorder.summaryTable().split('\n')[0]).toMatch(/^phase\s+frames\s+mean ms/);
  });
});
