import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SCREENSHOT_DIR, openPage, waitForBuilds, useHarness, LIGHT_TERRAIN } from './harness';

const harness = useHarness();

describe('wind in real Chromium', () => {
  it('edits an effect live: a syntax error is shown at its line and column and the last good program keeps running', async () => {
    const { page, errors } = await openPage(harness, `${LIGHT_TERRAIN}&Wind/enabled=true`);
    await waitForBuilds(page, 1);
    await page.locator('.lil-title', { hasText: 'Wind' }).click();
    await page
      .locator('.lil-controller', { has: page.locator('.lil-name', { hasText: 'edit code…' }) })
      .locator('button')
      .click();
    const editor = page.locator('[data-testid="field-editor"]');
    await editor.waitFor({ state: 'visible' });
    const status = page.locator('[data-testid="field-status"]');
    await expect(status.textContent()).resolves.toMatch(/compiled/);
    await expect(page.locator('[data-testid="field-disassembly"]').textContent()).resolves.toMatch(/r\d+ = sub r0 \(/);

    const source = page.locator('[data-testid="field-source"]');
    const text = await source.inputValue();
    await source.fill(text.replace('dot(r,r)', 'dot(r,r'));
    await page.waitForFunction(() =>
      /still running the last good program/.test(document.querySelector('[data-testid="field-status"]')?.textContent ?? ''),
    );
    await expect(status.textContent()).resolves.toMatch(/whirl:\d+:\d+: /);
    const hud = page.locator('[data-testid="timing-hud"]');
    // Still running: the timing panel keeps changing (polled, since a slow software-rendered frame can take a second).
    const before = await hud.textContent();
    await page.waitForFunction((old) => document.querySelector('[data-testid="timing-hud"]')?.textContent !== old, before, { timeout: 20_000 });
    await expect(hud.textContent()).resolves.toMatch(/wind: 4 effects/);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'wind-editor-error.png') });

    await source.fill(text.replace('* radius;', '* radius * 0.5;'));
    await page.waitForFunction(() => /compiled/.test(document.querySelector('[data-testid="field-status"]')?.textContent ?? ''));
    expect(errors).toEqual([]);
    await page.close();
  });
});
