import { describe, expect, it } from 'vitest';
import { openPage, waitForBuilds, useHarness, LIGHT_TERRAIN } from './harness';

const harness = useHarness();

describe('WebAssembly SIMD wind kernels in real Chromium', () => {
  it('switches the field back end live through every kernel; the SIMD ones compile in the page (in the background where the main thread refuses) and then run the wind', async () => {
    const { page, errors } = await openPage(harness, `${LIGHT_TERRAIN}&Wind/enabled=true`);
    await waitForBuilds(page, 1);
    await page.locator('.lil-title', { hasText: /^Wind$/ }).click();
    const select = (name: string) =>
      page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${name}$`) }) }).locator('select');
    const hudMatches = (pattern: RegExp): Promise<unknown> =>
      page.waitForFunction(
        (source) => new RegExp(source).test(document.querySelector('[data-testid="timing-hud"]')?.textContent ?? ''),
        pattern.source,
        { timeout: 60_000 },
      );
    const kernels = [
      ['WebAssembly SIMD', 'jit', 'WASM SIMD JIT'],
      ['TypeScript', 'jit', 'TypeScript JIT'],
      ['WebAssembly SIMD', 'interpreter', 'WASM SIMD interpreter'],
      ['TypeScript', 'interpreter', 'TypeScript interpreter'],
      ['WebAssembly SIMD', 'jit', 'WASM SIMD JIT'],
    ] as const;
    for (const [kernel, compiler, label] of kernels) {
      await select('field kernel').selectOption({ label: kernel });
      await select('field compiler').selectOption({ label: compiler });
      // The HUD names the kernel that ran the last evaluation: the chosen one, once it has compiled.
      await hudMatches(new RegExp(`wind: \\d+ effects · [\\d,]+ tracers · field [\\d.]+ ms \\(${label}\\)`));
    }
    const status = await page.evaluate(() => document.querySelector('[data-testid="timing-hud"]')?.textContent ?? '');
    expect(status).not.toMatch(/unavailable/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
