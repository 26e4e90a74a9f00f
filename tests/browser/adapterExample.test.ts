import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, SCREENSHOT_DIR, useHarness } from './harness';

const harness = useHarness();

describe('three.js adapter example page', () => {
  it('builds the BVH, reports a hovered face with its raycast time, and logs no error', async () => {
    // A small window: SwiftShader draws the 240,000-triangle knot on every pointer move.
    const { page, errors } = await openPage(harness, 'examples/raycast.html', { width: 640, height: 400 });
    await page.waitForSelector('#status[data-ready]', { timeout: 120_000 });
    expect(await page.locator('#status').textContent()).toMatch(/triangles, BVH built in \d+ ms, WebAssembly SIMD/);
    // Sweep the pointer across the middle of the view until it is over the knot.
    const size = page.viewportSize()!;
    await expect
      .poll(
        async () => {
          for (let step = 0; step <= 20; step++) await page.mouse.move(size.width * (0.3 + 0.02 * step), size.height * 0.45);
          return page.locator('#status').getAttribute('data-hits');
        },
        { timeout: 120_000 },
      )
      .not.toBeNull();
    const text = (await page.locator('#status').textContent()) ?? '';
    const [, ms] = /^face \d+ at distance [\d.]+ · ([\d.]+) ms per raycast \(mean of 200\) · WebAssembly SIMD$/.exec(text) ?? [];
    expect(text).toMatch(/^face/);
    expect(Number(ms)).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'adapter-example.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
