/** What the control bar's buttons ask the app to do. */
export interface ControlActions {
  togglePause(): void;
  step(): void;
  stepBack(): void;
  restart(): void;
  toggleRecording(): void;
  exportCsv(): void;
  exportJson(): void;
  benchmark(): void;
  screenshot(): void;
  toggleVideo(): void;
  fullscreen(): void;
  presenter(): void;
  help(): void;
}

/** The state the bar shows (the app updates it; the bar only reads). */
export interface ControlState {
  paused: boolean;
  recording: boolean;
  recordedFrames: number;
  videoRecording: boolean;
  canStepBack: boolean;
  benchmarking: boolean;
  timeScale: number;
}

interface ButtonSpec {
  id: string;
  label: string;
  title: string;
  action: keyof ControlActions;
}

const BUTTONS: readonly ButtonSpec[] = [
  { id: 'pause', label: '❚❚', title: 'Pause / run (Space)', action: 'togglePause' },
  { id: 'step-back', label: '❚◀', title: 'Step back one frame (,)', action: 'stepBack' },
  { id: 'step', label: '▶❚', title: 'Single step (.)', action: 'step' },
  { id: 'restart', label: '↺', title: 'Restart with the same seed (R)', action: 'restart' },
  { id: 'record', label: '●', title: 'Start / stop recording timings and counters (K)', action: 'toggleRecording' },
  { id: 'csv', label: 'CSV', title: 'Export the recording as CSV', action: 'exportCsv' },
  { id: 'json', label: 'JSON', title: 'Export the recording as JSON (with settings and machine)', action: 'exportJson' },
  { id: 'benchmark', label: 'bench', title: 'Benchmark: run the scene for a fixed number of frames with a fixed seed (B)', action: 'benchmark' },
  { id: 'screenshot', label: 'PNG', title: 'Screenshot as PNG (C)', action: 'screenshot' },
  { id: 'video', label: 'video', title: 'Start / stop video capture (V)', action: 'toggleVideo' },
  { id: 'fullscreen', label: 'full', title: 'Fullscreen (X)', action: 'fullscreen' },
  { id: 'presenter', label: '▶ talk', title: 'Presenter mode: panels hidden, scenes as slides (P)', action: 'presenter' },
  { id: 'help', label: '?', title: 'Shortcuts (?)', action: 'help' },
];

/**
 * The control bar at the bottom of the page: run control, recording, benchmark, capture and
 * presenting. Buttons are large enough for touch; every one has a keyboard shortcut in its tooltip.
 */
export class ControlBar {
  readonly element: HTMLDivElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly status: HTMLSpanElement;

  constructor(parent: HTMLElement, actions: ControlActions) {
    this.element = document.createElement('div');
    this.element.className = 'cs-controls';
    this.element.dataset.testid = 'controls';
    for (const spec of BUTTONS) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = spec.label;
      button.title = spec.title;
      button.setAttribute('aria-label', spec.title);
      button.dataset.testid = `control-${spec.id}`;
      button.addEventListener('click', () => {
        actions[spec.action]();
        button.blur(); // keep keyboard shortcuts on the page, not on the button
      });
      this.buttons.set(spec.id, button);
      this.element.appendChild(button);
    }
    this.status = document.createElement('span');
    this.status.className = 'cs-controls-status';
    this.status.dataset.testid = 'control-status';
    this.element.appendChild(this.status);
    parent.appendChild(this.element);
  }

  set visible(value: boolean) {
    this.element.hidden = !value;
  }

  show(state: ControlState): void {
    const pause = this.buttons.get('pause')!;
    pause.textContent = state.paused ? '▶' : '❚❚';
    pause.classList.toggle('cs-active', state.paused);
    this.buttons.get('step-back')!.disabled = !state.canStepBack;
    const record = this.buttons.get('record')!;
    record.classList.toggle('cs-recording', state.recording);
    this.buttons.get('csv')!.disabled = state.recordedFrames === 0;
    this.buttons.get('json')!.disabled = state.recordedFrames === 0;
    this.buttons.get('video')!.classList.toggle('cs-recording', state.videoRecording);
    this.buttons.get('benchmark')!.disabled = state.benchmarking;
    const parts: string[] = [];
    if (state.paused) parts.push('paused');
    if (state.timeScale !== 1) parts.push(`×${state.timeScale}`);
    if (state.recording) parts.push(`rec ${state.recordedFrames}`);
    else if (state.recordedFrames > 0) parts.push(`${state.recordedFrames} frames recorded`);
    if (state.benchmarking) parts.push('benchmarking…');
    if (state.videoRecording) parts.push('video');
    const text = parts.join(' · ');
    if (this.status.textContent !== text) this.status.textContent = text;
  }
}
