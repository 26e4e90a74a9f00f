import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { BUILT_SITE_DIR, SCREENSHOT_DIR, appStatus, guiControl, openPage, startHarness, type Harness } from './harness';
import { canvasPixels } from './pixels';
import { MeshoptEncoder } from 'meshoptimizer';
import { parseObj } from '../../src/meshes/index';
import { dracoGltfParts } from '../unit/meshes/dracoWriter';
import { meshoptGlb, writeGlb } from '../unit/meshes/meshWriters';

/**
 * Mesh files as the ground on the page: the sample mesh scenes open from `?scene=` and from the preset
 * menu, their BVH is built in the worker over the mesh's triangles, the systems they name run on it;
 * a dropped mesh file opens as a scene of its own, and a bad one leaves the scene on screen running.
 * One page serves the whole file (each mesh opens in a few seconds; a fresh page per test would double that).
 */
let harness: Harness;
let page: Page;
let errors: string[];

beforeAll(async () => {
  harness = await startHarness(BUILT_SITE_DIR);
  ({ page, errors } = await openPage(harness, '?scene=stairs-and-ramps'));
});

afterAll(async () => {
  await harness?.close();
});

interface MeshMetrics {
  scene: string;
  meshFile: string;
  bvhTriangles: number;
  triangles: number;
  systems: string[];
  metrics: Record<string, Record<string, number | string> | undefined>;
}

/** What runs on the page: the status and the sandbox's own report (the numbers the headless runner prints). */
const meshMetrics = (): Promise<MeshMetrics> =>
  page.evaluate(() => {
    const app = (
      window as unknown as {
        colliderscope: {
          status: { scene: string; meshFile: string; bvhTriangles: number; triangles: number };
          scenes: { sandbox: { systems: { name: string }[]; report(): { metrics: Record<string, Record<string, number | string>> } } | null };
        };
      }
    ).colliderscope;
    const sandbox = app.scenes.sandbox;
    return {
      scene: app.status.scene,
      meshFile: app.status.meshFile,
      bvhTriangles: app.status.bvhTriangles,
      triangles: app.status.triangles,
      systems: sandbox?.systems.map((s) => s.name) ?? [],
      metrics: sandbox?.report().metrics ?? {},
    };
  });

/** Waits until the mesh `file` is the ground, its BVH installed and every system has stepped on it. */
async function waitForMesh(file: string): Promise<MeshMetrics> {
  await page.waitForFunction(
    (name) => {
      const app = (
        window as unknown as {
          colliderscope: {
            status: { meshFile: string; bvhBuilding: boolean; building: boolean; simFrame: number };
            scenes: { sandbox: { system(name: string): { metrics(): Record<string, unknown> } | undefined } | null };
          };
        }
      ).colliderscope;
      const s = app.status;
      // The ray emitters trace on a later frame than the first steps on a busy machine: wait for their first result.
      const emitters = app.scenes.sandbox?.system('rayEmitters');
      const traced = emitters === undefined || emitters.metrics().hitsA !== undefined;
      return s.meshFile === name && !s.building && !s.bvhBuilding && s.simFrame > 5 && traced;
    },
    file,
    { timeout: 120_000 },
  );
  return meshMetrics();
}

/** The camera's position and the point it orbits. */
const cameraView = (): Promise<{ position: number[]; target: number[] }> =>
  page.evaluate(() => {
    const stage = (
      window as unknown as {
        colliderscope: {
          stage: { camera: { position: { x: number; y: number; z: number } }; orbit: { target: { x: number; y: number; z: number } } };
        };
      }
    ).colliderscope.stage;
    const { position: p } = stage.camera;
    const t = stage.orbit.target;
    return { position: [p.x, p.y, p.z], target: [t.x, t.y, t.z] };
  });

/** Waits until the page's character stands on something (it starts just above the ground). */
const waitForCharacterOnGround = (): Promise<unknown> =>
  page.waitForFunction(
    () =>
      (
        window as unknown as { colliderscope: { scenes: { sandbox: { report(): { metrics: { capsules?: { character?: string } } } } } } }
      ).colliderscope.scenes.sandbox.report().metrics.capsules?.character === 'on the ground',
    null,
    { timeout: 60_000 },
  );

/** Checks what every sample mesh scene shows: the tree over the mesh, rays hitting, capsules sweeping, the character standing. */
async function expectSystemsRun(file: string, triangles: number): Promise<MeshMetrics> {
  const shown = await waitForMesh(file);
  expect(shown.triangles).toBe(triangles);
  expect(shown.bvhTriangles).toBe(triangles);
  expect(shown.systems).toEqual(['actors', 'capsules', 'boxProbe', 'rayEmitters']);
  expect(Number(shown.metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
  expect(String(shown.metrics.capsules!.probeContact)).toMatch(/^toi /);
  expect(Number(shown.metrics.capsules!.crowd)).toBeGreaterThan(0);
  expect(Number(shown.metrics.boxProbe!.overlaps)).toBeGreaterThan(0);
  expect(Number(shown.metrics.actors!.actors)).toBeGreaterThan(0);
  await waitForCharacterOnGround();
  const pixels = await canvasPixels(page);
  expect(pixels.nonBackground).toBeGreaterThan(0.2);
  expect(pixels.distinctColours).toBeGreaterThan(20);
  return shown;
}

const banner = () => page.locator('[data-testid="error-banner"]');

/**
 * Two screenshots: the page as it is, and the scene alone (timing HUD, legends, panel and buttons hidden
 * for the shot), to see the mesh, its framing and the systems drawn on it.
 */
async function screenshots(name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  const overlays = '.cs-hud, .cs-legends, .lil-gui, [data-testid="stats"], [data-testid="controls"], [data-testid="error-banner"]';
  await page.evaluate((selector) => document.querySelectorAll<HTMLElement>(selector).forEach((e) => (e.style.visibility = 'hidden')), overlays);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-scene.png`) });
  await page.evaluate((selector) => document.querySelectorAll<HTMLElement>(selector).forEach((e) => (e.style.visibility = '')), overlays);
}

/** A 40 m floor of 8 × 8 quads and a 10 m box 6 m tall on its middle (faces in OBJ's counter-clockwise order): 138 triangles. */
const SMALL_OBJ = ((): string => {
  const lines: string[] = [];
  for (let row = 0; row <= 8; row++) for (let col = 0; col <= 8; col++) lines.push(`v ${-20 + 5 * col} 0 ${-20 + 5 * row}`);
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const v = 1 + row * 9 + col;
      lines.push(`f ${v} ${v + 9} ${v + 10} ${v + 1}`);
    }
  }
  lines.push('v -5 0 -5', 'v 5 0 -5', 'v 5 0 5', 'v -5 0 5', 'v -5 6 -5', 'v 5 6 -5', 'v 5 6 5', 'v -5 6 5');
  const b = (k: number): number => 82 + k;
  lines.push(`f ${b(4)} ${b(7)} ${b(6)} ${b(5)}`, `f ${b(0)} ${b(4)} ${b(5)} ${b(1)}`, `f ${b(3)} ${b(2)} ${b(6)} ${b(7)}`);
  lines.push(`f ${b(0)} ${b(3)} ${b(7)} ${b(4)}`, `f ${b(1)} ${b(5)} ${b(6)} ${b(2)}`);
  return `${lines.join('\n')}\n`;
})();

describe('mesh scenes on the page', () => {
  it('opens stairs-and-ramps from ?scene=: the BVH over its triangles, every system it names running on it', async () => {
    await expectSystemsRun('stairs-and-ramps.obj', 5124);
    expect(await page.evaluate(() => new URL(location.href).searchParams.get('scene'))).toBe('stairs-and-ramps');
    await screenshots('mesh-stairs-and-ramps');
    expect(errors).toEqual([]);
  });

  it('opens city-block from the preset menu, framed by its camera', async () => {
    const status = await appStatus(page);
    await guiControl(page, page, 'preset').locator('select').selectOption('city-block');
    const shown = await expectSystemsRun('city-block.obj', 3792);
    expect(shown.scene).toBe('city-block');
    expect((await appStatus(page)).builds).toBe(status.builds + 1);
    expect(await page.evaluate(() => new URL(location.href).searchParams.get('scene'))).toBe('city-block');
    // The scene's camera (it follows the character's few centimetres of settling, no more).
    const view = await cameraView();
    [-58, 42, -62].forEach((c, i) => expect(Math.abs(view.position[i]! - c)).toBeLessThan(2));
    await screenshots('mesh-city-block');
    expect(errors).toEqual([]);
  });

  it('refuses a heightfield-only system and terrain settings on a mesh with a notice, the scene running on', async () => {
    const before = await meshMetrics();
    const builds = (await appStatus(page)).builds;
    // A terrain slider moved: nothing is rebuilt, the value springs back to the mesh's, a notice says why.
    const seed = await page.evaluate(() => {
      const app = (window as unknown as { colliderscope: { settings: { terrain: { seed: number } }; scenes: { scheduleRebuild(): void } } })
        .colliderscope;
      const shown = app.settings.terrain.seed;
      app.settings.terrain.seed = shown + 1;
      app.scenes.scheduleRebuild();
      return { shown, now: app.settings.terrain.seed };
    });
    expect(seed.now).toBe(seed.shown);
    await expect(banner().textContent()).resolves.toMatch(/The ground is the mesh "city-block.obj": the terrain settings only describe it/);
    expect((await appStatus(page)).builds).toBe(builds);
    await page.evaluate(() =>
      (window as unknown as { colliderscope: { scenes: { setSystem(name: string, section: object): unknown } } }).colliderscope.scenes.setSystem(
        'particles',
        {},
      ),
    );
    await expect(banner().textContent()).resolves.toMatch(/the particles system needs a generated heightfield terrain .* the mesh "city-block.obj"/);
    const after = await meshMetrics();
    expect(after.systems).toEqual(before.systems);
    expect(errors).toEqual([]);
  });

  it('opens a dropped mesh file as a scene of its own: framed, with rays, capsules, a box probe and actors placed from its bounds', async () => {
    await page
      .locator('[data-testid="scene-file-input"]')
      .setInputFiles({ name: 'block.obj', mimeType: 'text/plain', buffer: Buffer.from(SMALL_OBJ) });
    const shown = await waitForMesh('block.obj');
    expect(shown.scene).toBe('block');
    expect(shown.bvhTriangles).toBe(138);
    // Framed from outside its 40 m footprint, above its 6 m box, looking at its middle.
    const view = await cameraView();
    expect(Math.hypot(view.position[0]!, view.position[2]!)).toBeGreaterThan(20);
    expect(view.position[1]).toBeGreaterThan(6);
    expect(Math.hypot(view.target[0]!, view.target[2]!)).toBeLessThan(2);
    expect(shown.systems).toEqual(['actors', 'capsules', 'boxProbe', 'rayEmitters']);
    expect(Number(shown.metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
    expect(String(shown.metrics.capsules!.probeContact)).toMatch(/^toi /);
    await waitForCharacterOnGround();
    expect(await banner().isVisible()).toBe(false);
    const pixels = await canvasPixels(page);
    expect(pixels.nonBackground).toBeGreaterThan(0.2);
    await screenshots('mesh-dropped');
    expect(errors).toEqual([]);
  });

  it('leaves the scene on screen running, with a clear message, for each bad mesh file dropped', async () => {
    const input = page.locator('[data-testid="scene-file-input"]');
    const bad: [string, string | Buffer, RegExp][] = [
      ['garbage.obj', 'this is not a mesh\nv 1 2\n', /garbage\.obj:2: "v" needs x y z, got 2 numbers/],
      ['empty.obj', '# nothing here\nv 0 0 0\n', /empty\.obj: the mesh has no triangles/],
      ['nan.obj', 'v 0 0 0\nv 1 0 nan\nv 0 0 1\nf 1 2 3\n', /nan\.obj:2: vertex 2 \(1 0 nan\) is not three finite numbers/],
      ['range.obj', 'v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n', /range\.obj:4: face corner "9" names vertex 9, but only 3 vertices/],
      ['short.stl', Buffer.alloc(40), /short\.stl: byte 40: a binary STL needs at least 84 bytes/],
      [
        'broken.glb',
        Buffer.from('glTF\x02\x00\x00\x00\x10\x00\x00\x00garbage!'),
        /broken\.glb: byte 12: a chunk header runs past the end of the file/,
      ],
    ];
    for (const [name, content, message] of bad) {
      const before = await appStatus(page);
      await input.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(content) });
      await page.waitForFunction((file) => document.querySelector('[data-testid="error-banner"]')?.textContent?.includes(file) === true, name, {
        timeout: 30_000,
      });
      expect(await banner().textContent()).toMatch(message);
      // Still the city, still stepping, nothing rebuilt.
      await page.waitForFunction(
        (frame) => (window as unknown as { colliderscope: { status: { simFrame: number } } }).colliderscope.status.simFrame > frame + 5,
        before.simFrame,
        {
          timeout: 30_000,
        },
      );
      const after = await appStatus(page);
      expect(after.scene).toBe('block');
      expect(after.meshFile).toBe('block.obj');
      expect(after.builds).toBe(before.builds);
      expect(after.building).toBe(false);
    }
    // And still stepping.
    const frame = (await appStatus(page)).simFrame;
    await page.waitForFunction(
      (n) => (window as unknown as { colliderscope: { status: { simFrame: number } } }).colliderscope.status.simFrame > n + 2,
      frame,
      {
        timeout: 60_000,
      },
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'mesh-bad-file.png') });
    await expect(guiControl(page, page, 'preset').locator('.lil-display').textContent()).resolves.toBe('block');
    expect(errors).toEqual([]);
  });

  it('opens the same block dropped as a meshopt-compressed GLB, decoded in the worker by the decoder three ships', async () => {
    await MeshoptEncoder.ready;
    const block = parseObj(SMALL_OBJ, 'block.obj');
    const { json, bin } = meshoptGlb({ positions: Array.from(block.positions), indices: Array.from(block.indices) });
    await page
      .locator('[data-testid="scene-file-input"]')
      .setInputFiles({ name: 'block-meshopt.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(writeGlb(json, bin)) });
    const shown = await waitForMesh('block-meshopt.glb');
    expect(shown.bvhTriangles).toBe(138);
    expect(Number(shown.metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('opens the same block dropped as a Draco-compressed GLB, decoded in the worker by the decoder three ships', async () => {
    const block = parseObj(SMALL_OBJ, 'block.obj');
    const { json, bin } = await dracoGltfParts({ positions: Array.from(block.positions), indices: Array.from(block.indices) });
    await page
      .locator('[data-testid="scene-file-input"]')
      .setInputFiles({ name: 'block-draco.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(writeGlb(json, bin)) });
    const shown = await waitForMesh('block-draco.glb');
    expect(shown.bvhTriangles).toBe(138);
    expect(Number(shown.metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'mesh-draco.png') });
    expect(errors).toEqual([]);
  });

  it('opens a dropped scene file naming a bundled mesh, framing the mesh when the file names no camera', async () => {
    const scene = { name: 'my-city', terrain: { mesh: 'city-block.obj' }, systems: { rayEmitters: { rays: 200, x: 0, z: -30, height: 2 } } };
    await page
      .locator('[data-testid="scene-file-input"]')
      .setInputFiles({ name: 'my-city.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scene)) });
    const shown = await waitForMesh('city-block.obj');
    expect(shown.scene).toBe('my-city');
    expect(shown.bvhTriangles).toBe(3792);
    expect(shown.systems).toEqual(['rayEmitters']);
    expect(Number(shown.metrics.rayEmitters!.hitsA)).toBeGreaterThan(0);
    // The default camera of the mesh's bounds (80 m across, 24 m tall), not of a generated terrain.
    const view = await cameraView();
    expect(view.position[0]).toBeCloseTo(80 * 0.55, 1);
    expect(view.position[1]).toBeCloseTo(24 + 80 * 0.35, 1);
    expect(errors).toEqual([]);
  });

  it('goes back to a generated terrain from a mesh', async () => {
    const before = await appStatus(page);
    await page.evaluate(() =>
      (window as unknown as { colliderscope: { scenes: { selectPreset(name: string): void } } }).colliderscope.scenes.selectPreset('default'),
    );
    await page.waitForFunction(
      (builds) => {
        const s = (window as unknown as { colliderscope: { status: { builds: number; bvhBuilds: number; building: boolean; meshFile: string } } })
          .colliderscope.status;
        return s.builds > builds && !s.building && s.meshFile === '';
      },
      before.builds,
      { timeout: 120_000 },
    );
    const status = await appStatus(page);
    expect(status.scene).toBe('default');
    expect(status.triangles).toBe(2 * 256 * 256);
    expect(errors).toEqual([]);
  });
});
