import { describe, expect, it } from 'vitest';
import { Sandbox, parseScene, type RecordingInfo, type SimSystem, type StateHasher } from '../../../src/core';
import { BENCHMARK_WARMUP, FIXED_DT, MAX_TIME_SCALE, MIN_TIME_SCALE, RunControl, type RunOptions } from '../../../src/app/runControl';

/** A system whose whole state is one number, advanced by each step's dt; rewindable unless told not. */
class Clock implements SimSystem {
  readonly name = 'clock';
  seconds = 0;
  steps = 0;
  constructor(rewindable = true) {
    if (!rewindable) {
      this.saveState = undefined;
      this.loadState = undefined;
    }
  }
  step(dt: number): void {
    this.seconds += dt;
    this.steps++;
  }
  metrics(): Record<string, number> {
    return { steps: this.steps };
  }
  hash(hasher: StateHasher): void {
    hasher.number(this.seconds).word(this.steps);
  }
  section(): object {
    return {};
  }
  saveState?: () => unknown = () => ({ seconds: this.seconds, steps: this.steps });
  loadState?: (state: unknown) => void = (state) => Object.assign(this, state as { seconds: number; steps: number });
}

const INFO: RecordingInfo = {
  scene: 'tiny',
  seed: 3,
  settings: { url: 'http://localhost/#x' },
  machine: { userAgent: 'node', cores: 2, canvas: '1×1' },
  startedAt: '',
};

function setup(options: { rewindable?: boolean; history?: number; run?: Partial<RunOptions> } = {}) {
  const sandbox = new Sandbox(parseScene({ name: 'tiny', seed: 3, terrain: { cells: 16 } }), undefined, 120, options.history ?? 10);
  const clock = new Clock(options.rewindable ?? true);
  sandbox.addSystem(clock);
  const messages: string[] = [];
  const run: RunOptions = { timeScale: 1, fixedStep: false, benchmarkFrames: 300, benchmarkWarmup: BENCHMARK_WARMUP, ...options.run };
  const control = new RunControl(run, { sandbox: () => sandbox, report: (m) => messages.push(m), recordingInfo: () => INFO });
  /** One page frame of `realDt` seconds: ask, step, render, end; returns the step taken and the benchmark table. */
  const frame = (realDt = 0.03): { dt: number; table: string | null } => {
    const dt = control.nextStepDt(realDt);
    if (dt > 0) sandbox.step(dt);
    sandbox.timings.record('render', 1);
    return { dt, table: control.endFrame(sandbox, dt, () => ({ 'probe.0': 'line' })) };
  };
  return { sandbox, clock, messages, run, control, frame };
}

describe('RunControl', () => {
  it('steps by the real frame time times the time scale while running, by a fixed 1/60 s with fixed steps', () => {
    const { control, run } = setup();
    expect(control.nextStepDt(0.03)).toBeCloseTo(0.03, 12);
    run.timeScale = 0.5;
    expect(control.nextStepDt(0.03)).toBeCloseTo(0.015, 12);
    run.fixedStep = true;
    expect(control.nextStepDt(0.03)).toBeCloseTo(FIXED_DT * 0.5, 12);
    expect(control.nextStepDt(0.1)).toBeCloseTo(FIXED_DT * 0.5, 12);
  });

  it('pauses, and takes each single step asked for once, at 1/60 s times the time scale', () => {
    const { control, frame, sandbox, run } = setup();
    frame();
    control.togglePause();
    expect(control.paused).toBe(true);
    for (let i = 0; i < 5; i++) expect(frame().dt).toBe(0);
    expect(sandbox.frame).toBe(1);
    run.timeScale = 2;
    control.requestStep();
    control.requestStep();
    expect(frame().dt).toBeCloseTo(2 * FIXED_DT, 12);
    expect(frame().dt).toBeCloseTo(2 * FIXED_DT, 12);
    expect(frame().dt).toBe(0);
    expect(sandbox.frame).toBe(3);
    // A step asked for while running pauses first; running again forgets steps not taken.
    control.togglePause();
    control.requestStep();
    expect(control.paused).toBe(true);
    control.requestStep();
    control.togglePause();
    expect(control.pendingSteps).toBe(0);
    expect(frame().dt).toBeCloseTo(0.03 * 2, 12);
  });

  it('halves and doubles the time scale within 0.05…4', () => {
    const { control, run } = setup();
    const slower = [1, 2, 3, 4, 5, 6].map(() => control.slower());
    expect(slower).toEqual([0.5, 0.25, 0.13, 0.07, MIN_TIME_SCALE, MIN_TIME_SCALE]);
    run.timeScale = 1;
    const faster = [1, 2, 3].map(() => control.faster());
    expect(faster).toEqual([2, MAX_TIME_SCALE, MAX_TIME_SCALE]);
    run.timeScale = 0.05;
    expect(control.faster()).toBe(0.1);
  });

  it('steps back through the history when every system can save its state, and says why not when it cannot', () => {
    const { control, frame, sandbox, clock, messages } = setup({ history: 3 });
    for (let i = 0; i < 5; i++) frame(0.02);
    expect(control.canStepBack).toBe(true);
    expect(control.stepBack()).toBe(true);
    expect(control.paused).toBe(true);
    expect(sandbox.frame).toBe(4);
    expect(clock.seconds).toBeCloseTo(0.08, 12);
    expect(control.stepBack()).toBe(true);
    expect(control.stepBack()).toBe(true);
    expect(sandbox.frame).toBe(2);
    expect(control.canStepBack).toBe(false);
    expect(control.stepBack()).toBe(false);
    expect(sandbox.frame).toBe(2);
    expect(messages).toEqual(['Nothing older to step back to (the last 3 frames are kept).']);

    const fixed = setup({ rewindable: false });
    for (let i = 0; i < 5; i++) fixed.frame();
    expect(fixed.control.canStepBack).toBe(false);
    expect(fixed.control.stepBack()).toBe(false);
    expect(fixed.control.paused).toBe(true);
    expect(fixed.sandbox.frame).toBe(5);
    expect(fixed.messages).toEqual(['The clock system keeps no history of its states, so stepping back is off for this scene.']);
  });

  it('restarts from frame 0 with the timings cleared, or says it cannot', () => {
    const { control, frame, sandbox, clock, messages } = setup();
    for (let i = 0; i < 7; i++) frame();
    expect(control.restart()).toBe(true);
    expect(sandbox.frame).toBe(0);
    expect(clock.seconds).toBe(0);
    expect(sandbox.timings.keptCount('step')).toBe(0);
    expect(messages).toEqual([]);

    const fixed = setup({ rewindable: false });
    for (let i = 0; i < 7; i++) fixed.frame();
    expect(fixed.control.restart()).toBe(false);
    expect(fixed.sandbox.frame).toBe(7);
    expect(fixed.messages).toEqual([expect.stringMatching(/cannot restart in place/)]);
  });

  it('benchmarks: restart, warm-up frames, then the recorded frames of 1/60 s, a table, and the recorder stopped', () => {
    const { control, frame, sandbox, clock, run } = setup({ run: { benchmarkFrames: 12, timeScale: 0.25 } });
    for (let i = 0; i < 4; i++) frame();
    control.toggleRecording();
    frame();
    expect(control.recorder.recording).toBe(true);
    control.togglePause();

    expect(control.startBenchmark()).toBe(true);
    expect(control.startBenchmark()).toBe(false); // one at a time
    expect(control.benchmarking).toBe(true);
    expect(control.recorder.recording).toBe(false); // the recording running before stops
    expect(control.paused).toBe(false);
    expect(sandbox.frame).toBe(0);

    const steps: number[] = [];
    let table: string | null = null;
    let frames = 0;
    let recordingFrom = -1;
    while (table === null && frames < 1000) {
      const result = frame(0.05);
      frames++;
      steps.push(result.dt);
      table = result.table;
      if (recordingFrom < 0 && control.recorder.recording) recordingFrom = frames;
    }
    // Warm-up, then the frame that starts the recording, then the recorded frames.
    expect(frames).toBe(BENCHMARK_WARMUP + 1 + run.benchmarkFrames);
    expect(recordingFrom).toBe(BENCHMARK_WARMUP + 1);
    expect(steps.every((dt) => dt === FIXED_DT)).toBe(true); // neither the time scale nor the real time count
    expect(clock.steps).toBe(frames);
    expect(control.benchmarking).toBe(false);
    expect(control.recorder.recording).toBe(false);
    expect(control.recorder.frames).toHaveLength(run.benchmarkFrames);
    expect(control.recorder.frames[0]!.frame).toBe(BENCHMARK_WARMUP + 2);
    expect(control.recorder.frames[0]!.metrics['probe.0']).toBe('line');
    expect(control.recorder.toCsv().trim().split('\n')).toHaveLength(run.benchmarkFrames + 1);
    expect(table).toBe(control.benchmarkResult);
    expect(table).toMatch(/^scene tiny · seed 3 · 12 frames of 1\/60 s after 30 warm-up frames$/m);
    expect(table).toMatch(/^http:\/\/localhost\/#x$/m);
    expect(table).toMatch(/^step\s+12\s/m);
    expect(table).toMatch(/^render\s+12\s/m);
    // Afterwards the run goes on at the user's time scale, and nothing more is recorded.
    expect(frame(0.05).dt).toBeCloseTo(0.05 * 0.25, 12);
    expect(control.recorder.frames).toHaveLength(run.benchmarkFrames);
  });

  it('benchmarks after the warm-up the settings name, and keeps the counts it started with when they change', () => {
    const { control, frame, run } = setup({ run: { benchmarkFrames: 6, benchmarkWarmup: 3 } });
    expect(control.startBenchmark()).toBe(true);
    // Settings changed while it runs apply to the next benchmark, not this one.
    run.benchmarkWarmup = 50;
    run.benchmarkFrames = 40;
    let table: string | null = null;
    let frames = 0;
    let recordingFrom = -1;
    while (table === null && frames < 1000) {
      table = frame(0.05).table;
      frames++;
      if (recordingFrom < 0 && control.recorder.recording) recordingFrom = frames;
    }
    expect(recordingFrom).toBe(4);
    expect(frames).toBe(3 + 1 + 6);
    expect(control.recorder.frames).toHaveLength(6);
    expect(table).toMatch(/^scene tiny · seed 3 · 6 frames of 1\/60 s after 3 warm-up frames$/m);
    // No warm-up at all: recording from the first frame.
    run.benchmarkWarmup = 0;
    run.benchmarkFrames = 4;
    expect(control.startBenchmark()).toBe(true);
    table = null;
    frames = 0;
    while (table === null && frames < 1000) {
      table = frame(0.05).table;
      frames++;
    }
    expect(frames).toBe(1 + 4);
    expect(control.recorder.frames).toHaveLength(4);
    expect(table).toMatch(/after 0 warm-up frames/);
  });

  it('benchmarks a sandbox that cannot go back to frame 0 from where it is, says so in the table, and raises no notice', () => {
    const fixed = setup({ rewindable: false, run: { benchmarkFrames: 5 } });
    for (let i = 0; i < 7; i++) fixed.frame();
    expect(fixed.control.startBenchmark()).toBe(true);
    expect(fixed.sandbox.frame).toBe(7);
    let table: string | null = null;
    for (let frames = 0; table === null && frames < 1000; frames++) table = fixed.frame(0.05).table;
    expect(table).toMatch(
      /^scene tiny · seed 3 · 5 frames of 1\/60 s after 30 warm-up frames · from frame 7 \(this world cannot go back to frame 0\)$/m,
    );
    expect(fixed.messages).toEqual([]);
  });
});
