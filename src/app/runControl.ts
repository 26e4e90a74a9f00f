import { DEFAULT_RUN_SETTINGS } from '../ui/settings';
import { FrameRecorder, type MetricValue, type RecordingInfo, type Sandbox } from '../core';

/** The step of fixed-step runs, single steps and benchmarks. */
export const FIXED_DT = 1 / 60;
/** The default of the frames run before a benchmark starts recording (JIT warm-up, first uploads). */
export const BENCHMARK_WARMUP = DEFAULT_RUN_SETTINGS.benchmarkWarmup;
/** The range `slower` and `faster` keep the time scale in. */
export const MIN_TIME_SCALE = 0.05;
export const MAX_TIME_SCALE = 4;

/** The run settings run control reads (the page's `settings.run`; the GUI edits the same object). */
export interface RunOptions {
  /** Simulated seconds per real second. */
  timeScale: number;
  /** Step by exactly FIXED_DT × timeScale every frame instead of by the frame's real duration. */
  fixedStep: boolean;
  /** Frames a benchmark records after its warm-up. */
  benchmarkFrames: number;
  /** Frames a benchmark runs before it records (BENCHMARK_WARMUP by default). */
  benchmarkWarmup: number;
}

/** What run control needs from its host; nothing here touches the DOM. */
export interface RunControlHost {
  /** The current sandbox, or null while there is none yet. */
  sandbox(): Sandbox | null;
  /** A message for the user: a step back or a restart that could not be done. */
  report(message: string): void;
  /** A notice rather than an error (a rewind this scene's systems cannot do); `report` when absent. */
  notify?(message: string, title: string): void;
  /** What a recording is made with (scene, settings, machine): asked when a recording starts. */
  recordingInfo(sandbox: Sandbox): RecordingInfo;
}

/**
 * How the simulation advances: pause and run, single steps, step back, restart, the time scale, fixed
 * steps, recording, and the benchmark (restart, `benchmarkWarmup` frames, then `benchmarkFrames` recorded
 * frames of FIXED_DT). The page asks `nextStepDt` once per frame, steps the sandbox by it, renders, then
 * calls `endFrame`. No DOM and no three.js: the unit tests drive it in Node with a real sandbox.
 */
export class RunControl {
  paused = false;
  /** Single steps asked for while paused, taken one per frame. */
  pendingSteps = 0;
  /** The last benchmark's table ('' until one finished). */
  benchmarkResult = '';
  /** Frames left in the running benchmark, warm-up included; negative when none runs. */
  private benchmarkLeft = -1;
  /** The frame the running benchmark began at when the sandbox could not go back to frame 0, else null. */
  private benchmarkFrom: number | null = null;
  /** The warm-up and recorded frames of the running benchmark (the settings as they were when it started). */
  private benchmarkWarmup = BENCHMARK_WARMUP;
  private benchmarkRecorded = 0;

  constructor(
    readonly run: RunOptions,
    private readonly host: RunControlHost,
    readonly recorder = new FrameRecorder(),
  ) {}

  get benchmarking(): boolean {
    return this.benchmarkLeft >= 0;
  }

  /** Whether the sandbox has a state to step back to. */
  get canStepBack(): boolean {
    const sandbox = this.host.sandbox();
    return sandbox !== null && sandbox.history.length > 0;
  }

  /**
   * The simulated seconds to step this frame, given the frame's real duration: FIXED_DT while
   * benchmarking; while running, the real duration (or FIXED_DT with fixed steps) times the time scale;
   * while paused, one FIXED_DT × time scale per pending single step, else 0.
   */
  nextStepDt(realDt: number): number {
    if (this.benchmarking) return FIXED_DT;
    if (!this.paused) return (this.run.fixedStep ? FIXED_DT : realDt) * this.run.timeScale;
    if (this.pendingSteps > 0) {
      this.pendingSteps--;
      return FIXED_DT * this.run.timeScale;
    }
    return 0;
  }

  /**
   * After the frame's step and render: records the frame (when it stepped, or a benchmark runs) and
   * moves the benchmark on. Returns the benchmark's table on the frame it finishes, else null.
   */
  endFrame(sandbox: Sandbox, steppedDt: number, counters: () => Record<string, MetricValue>): string | null {
    if (steppedDt > 0 || this.benchmarking) this.recorder.capture(sandbox, this.recorder.recording ? counters() : undefined);
    return this.advanceBenchmark(sandbox);
  }

  togglePause(): void {
    this.paused = !this.paused;
    this.pendingSteps = 0;
  }

  /** One more FIXED_DT step (pauses first). */
  requestStep(): void {
    this.paused = true;
    this.pendingSteps++;
  }

  /** Pauses and goes back one frame; false (and the reason reported) when it cannot. */
  stepBack(): boolean {
    const sandbox = this.host.sandbox();
    if (sandbox === null) return false;
    this.paused = true;
    this.pendingSteps = 0;
    if (sandbox.stepBack()) return true;
    if (sandbox.rewindable) this.host.report(`Nothing older to step back to (the last ${sandbox.history.capacity} frames are kept).`);
    else this.cannotRewind(sandbox, 'Step back', 'stepping back is off for this scene');
    return false;
  }

  /** Says which running systems keep no state to go back to, as a notice (nothing went wrong). */
  private cannotRewind(sandbox: Sandbox, action: string, consequence: string): void {
    const names = sandbox.systems.filter((system) => system.saveState === undefined || system.loadState === undefined).map((system) => system.name);
    if (names.length === 0) {
      // Every system keeps its states, but no frame 0 was saved of the world as it is now (sandbox.ts
      // forgets its history when systems are switched on or off or the terrain's edits are replaced).
      const message = `Systems were switched on or off (or the terrain's edits replaced) after frame 0, so there is no frame 0 of this world to go back to; ${consequence}.`;
      if (this.host.notify !== undefined) this.host.notify(message, `${action} is not available now`);
      else this.host.report(message);
      return;
    }
    const who =
      names.length === 1
        ? `The ${names[0]!} system keeps no history of its states`
        : `The ${names.join(', ')} systems keep no history of their states`;
    const message = `${who}, so ${consequence}.`;
    if (this.host.notify !== undefined) this.host.notify(message, `${action} is not available in this scene`);
    else this.host.report(message);
  }

  /** Back to frame 0 with the same seeds, timings cleared; false (and reported) when it cannot. */
  restart(): boolean {
    const sandbox = this.host.sandbox();
    if (sandbox === null) return false;
    const done = sandbox.restart();
    if (!done) this.cannotRewind(sandbox, 'Restart', 'the scene cannot restart in place; reload the page for a clean start');
    sandbox.timings.clear();
    return done;
  }

  /** Halves the time scale (to two decimals), not below MIN_TIME_SCALE. */
  slower(): number {
    this.run.timeScale = Math.max(MIN_TIME_SCALE, Math.round(this.run.timeScale * 50) / 100);
    return this.run.timeScale;
  }

  /** Doubles the time scale (to two decimals), not above MAX_TIME_SCALE. */
  faster(): number {
    this.run.timeScale = Math.min(MAX_TIME_SCALE, Math.round(this.run.timeScale * 200) / 100);
    return this.run.timeScale;
  }

  toggleRecording(): void {
    if (this.recorder.recording) {
      this.recorder.stop();
      return;
    }
    const sandbox = this.host.sandbox();
    if (sandbox !== null) this.recorder.start(this.host.recordingInfo(sandbox), sandbox);
  }

  /**
   * Restarts with the scene's seeds and runs unpaused with FIXED_DT steps: warm-up, then recorded frames.
   * A sandbox that cannot go back to frame 0 is benchmarked from where it is, which its table says
   * (no notice: the benchmark runs all the same).
   */
  startBenchmark(): boolean {
    const sandbox = this.host.sandbox();
    if (sandbox === null || this.benchmarking) return false;
    if (this.recorder.recording) this.recorder.stop();
    this.benchmarkFrom = sandbox.restart() ? null : sandbox.frame;
    sandbox.timings.clear();
    this.paused = false;
    this.pendingSteps = 0;
    this.benchmarkWarmup = Math.max(0, Math.round(this.run.benchmarkWarmup));
    this.benchmarkRecorded = this.run.benchmarkFrames;
    this.benchmarkLeft = this.benchmarkWarmup + this.benchmarkRecorded;
    return true;
  }

  private advanceBenchmark(sandbox: Sandbox): string | null {
    if (!this.benchmarking) return null;
    if (this.benchmarkLeft === this.benchmarkRecorded) {
      // Warm-up over: measure from here.
      sandbox.timings.clear();
      this.recorder.start(this.host.recordingInfo(sandbox), sandbox);
    }
    this.benchmarkLeft--;
    if (this.benchmarking) return null;
    this.recorder.stop();
    const info = this.recorder.info!;
    this.benchmarkResult = [
      `scene ${info.scene} · seed ${info.seed} · ${this.recorder.frames.length} frames of 1/60 s after ${this.benchmarkWarmup} warm-up frames` +
        (this.benchmarkFrom === null ? '' : ` · from frame ${this.benchmarkFrom} (this world cannot go back to frame 0)`),
      `${String(info.machine.userAgent)} · ${String(info.machine.cores)} cores · canvas ${String(info.machine.canvas)}`,
      linkOf(info.settings),
      '',
      this.recorder.summaryTable(),
    ].join('\n');
    return this.benchmarkResult;
  }
}

/** The page link a recording's settings carry, or '' when they carry none. */
function linkOf(settings: unknown): string {
  const url = (settings as { url?: unknown }).url;
  return typeof url === 'string' ? url : '';
}
