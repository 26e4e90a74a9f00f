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
