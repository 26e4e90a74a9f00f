import type { Page } from 'playwright-core';

export interface CanvasPixels {
  width: number;
  height: number;
  /** Distinct colours after quantizing each channel to 5 bits. */
  distinctColours: number;
  /** Share of pixels that differ clearly from the top-left pixel (the sky). */
  nonBackground: number;
  /** A fingerprint of the quantized image, to tell two frames apart. */
  fingerprint: number;
}

/** Reads the WebGL canvas back (the renderer keeps its drawing buffer) and summarizes what it shows. */
export function canvasPixels(page: Page): Promise<CanvasPixels> {
  return page.evaluate(() => {
    const source = document.querySelector<HTMLCanvasElement>('#app canvas');
    if (source === null) throw new Error('no canvas');
    const width = 320;
    const height = Math.round((320 * source.height) / source.width);
    const scratch = document.createElement('canvas');
    scratch.width = width;
    scratch.height = height;
    const context = scratch.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(source, 0, 0, width, height);
    const data = context.getImageData(0, 0, width, height).data;
    const colours = new Set<number>();
    let different = 0;
    let fingerprint = 0x811c9dc5;
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    for (let i = 0; i < data.length; i += 4) {
      const key = ((data[i]! >> 3) << 10) | ((data[i + 1]! >> 3) << 5) | (data[i + 2]! >> 3);
      colours.add(key);
      fingerprint = Math.imul(fingerprint ^ key, 0x01000193);
      if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 30) different++;
    }
    return { width, height, distinctColours: colours.size, nonBackground: different / (width * height), fingerprint: fingerprint >>> 0 };
  });
}
