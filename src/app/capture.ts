import { ColliderscopeError, type FrameRecorder, type RecordingInfo, type Sandbox } from '../core';

/** Saves a blob as a file through a temporary link (the browser's download). */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, fileName: string, type: string): void {
  download(new Blob([text], { type }), fileName);
}

/** A file-name-safe timestamp, so successive captures do not overwrite each other. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}

/** The canvas as a PNG blob (the renderer keeps its drawing buffer, so this is the last frame). */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob === null ? reject(new Error('the canvas could not be encoded as PNG')) : resolve(blob)), 'image/png'),
  );
}

/**
 * Records the canvas as a WebM video with MediaRecorder; stop() resolves with the video. Throws a clear
 * error where the browser has no MediaRecorder or no WebM encoder.
 */
export class VideoCapture {
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];

  get recording(): boolean {
    return this.recorder !== null;
  }

  start(canvas: HTMLCanvasElement, fps = 60): void {
    if (typeof MediaRecorder === 'undefined' || typeof canvas.captureStream !== 'function')
      throw new Error('video capture needs MediaRecorder and canvas.captureStream, which this browser lacks');
    const type = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t));
    if (type === undefined) throw new Error('this browser cannot encode WebM video');
    this.chunks = [];
    const recorder = new MediaRecorder(canvas.captureStream(fps), { mimeType: type, videoBitsPerSecond: 8_000_000 });
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    recorder.start(250);
    this.recorder = recorder;
  }

  stop(): Promise<Blob> {
    const recorder = this.recorder;
    this.recorder = null;
    if (recorder === null) return Promise.reject(new Error('no video is being recorded'));
    return new Promise((resolve) => {
      recorder.onstop = () => resolve(new Blob(this.chunks, { type: recorder.mimeType }));
      recorder.stop();
      for (const track of recorder.stream.getTracks()) track.stop();
    });
  }
}

/**
 * The page's capture actions (screenshot, video, fullscreen, recording export), each reporting its
 * failure to the user instead of throwing. Files are named after the scene and the time.
 */
export class CaptureActions {
  private readonly video = new VideoCapture();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly host: { sceneName(): string; render(): void; report(message: string): void },
  ) {}

  get videoRecording(): boolean {
    return this.video.recording;
  }

  async screenshot(): Promise<void> {
    try {
      this.host.render();
      download(await canvasPng(this.canvas), this.fileName('png'));
    } catch (error) {
      this.host.report(`Screenshot failed: ${messageOf(error)}`);
    }
  }

  async toggleVideo(): Promise<void> {
    try {
      if (this.video.recording) download(await this.video.stop(), this.fileName('webm'));
      else this.video.start(this.canvas);
    } catch (error) {
      this.host.report(`Video capture failed: ${messageOf(error)}`);
    }
  }

  toggleFullscreen(): void {
    if (document.fullscreenElement !== null) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch((error: unknown) => this.host.report(`Fullscreen refused: ${messageOf(error)}`));
  }

  /** Downloads a recording as CSV or JSON; says what to do when nothing was recorded. */
  exportRecording(recorder: FrameRecorder, format: 'csv' | 'json'): void {
    if (recorder.frames.length === 0) {
      this.host.report('Nothing recorded yet: press ● (K) to record, run some frames, then export.');
      return;
    }
    if (format === 'csv') downloadText(recorder.toCsv(), this.fileName('csv'), 'text/csv');
    else downloadText(recorder.toJson(), this.fileName('json'), 'application/json');
  }

  private fileName(extension: string): string {
    return `colliderscope-${this.host.sceneName()}-${stamp()}.${extension}`;
  }
}

/** An error as the user reads it: a typed error's own message, else its name and message. */
export function messageOf(error: unknown): string {
  if (error instanceof ColliderscopeError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** What a recording is made with: the scene, every setting and the link to them, and the machine. */
export function recordingInfo(sandbox: Sandbox, settings: object, link: string, canvas: HTMLCanvasElement): RecordingInfo {
  return {
    scene: sandbox.scene.name,
    seed: sandbox.scene.seed,
    settings: { ...settings, url: link },
    machine: {
      userAgent: navigator.userAgent,
      cores: navigator.hardwareConcurrency ?? 0,
      devicePixelRatio: window.devicePixelRatio,
      canvas: `${canvas.width}×${canvas.height}`,
    },
    startedAt: new Date().toISOString(),
  };
}
