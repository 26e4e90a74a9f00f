/** Headless Chromium against this checkout's page, served by Vite: shared by the browser tests and the tour script. */
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { createServer, preview } from 'vite';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Real headless Chromium (Debian's /usr/bin/chromium, never a downloaded browser) against the Vite dev
 * server of this checkout. WebGL runs on SwiftShader since the machine has no GPU.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SCREENSHOT_DIR = resolve(PROJECT_ROOT, 'test-output');

export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Harness {
  browser: Browser;
  url: string;
  close(): Promise<void>;
}

/**
 * Chromium and a server for the page: by default Vite's dev server of this checkout (modules served one
 * by one, as `npm start` does); given `builtSite`, the folder `vite build` wrote, served as `vite
 * preview` does (one bundle: a page is ready in about a second instead of four or five).
 */
export async function startHarness(builtSite?: string): Promise<Harness> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  const server = builtSite === undefined ? await startDevServer() : await startPreviewServer(builtSite);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    browser,
    url: server.url,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

interface PageServer {
  url: string;
  close(): Promise<void>;
}

async function startDevServer(): Promise<PageServer> {
  // No file watching and no HMR: an edit made while the tests run must not reload the pages under test.
  const server = await createServer({
    root: PROJECT_ROOT,
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1', open: false, hmr: false, watch: null },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || address === undefined || typeof address === 'string') throw new Error('dev server has no port');
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

async function startPreviewServer(outDir: string): Promise<PageServer> {
  if (!existsSync(resolve(outDir, 'index.html'))) throw new Error(`no built site in ${outDir}: build it first (vite build --outDir ${outDir})`);
  const server = await preview({ root: PROJECT_ROOT, logLevel: 'error', build: { outDir }, preview: { port: 0, host: '127.0.0.1', open: false } });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

/** The ceiling of every page wait that names none (waitForFunction, locators, screenshots). */
export const PAGE_WAIT_CEILING_MS = 120_000;

/**
 * A page that records console errors and uncaught exceptions. Unless `firstVisit` is set, the page
 * behaves as for a returning visitor: the first-visit help overlay has been closed before.
 */
export async function openPage(
  harness: Harness,
  query = '',
  size = { width: 1024, height: 640 },
  firstVisit = false,
): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.browser.newPage({ viewport: size, acceptDownloads: true });
  // Playwright's 30 s default is a wall-clock bet a busy 2-core machine can lose (a software-rendered
  // frame of a heavy scene can take seconds): every wait without its own ceiling gets a generous one.
  page.setDefaultTimeout(PAGE_WAIT_CEILING_MS);
  if (!firstVisit) await page.addInitScript(() => localStorage.setItem('colliderscope.helpSeen', '1'));
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  await page.goto(harness.url + query, { waitUntil: 'domcontentloaded' });
  return { page, errors };
}

/**
 * Closes every page a test left open (a failed assertion skips its page.close()): a forgotten page keeps
 * rendering WebGL on the CPU and slows every later test down. Call from afterEach.
 */
export async function closeAllPages(harness: Harness | undefined): Promise<void> {
  if (harness === undefined) return;
  await Promise.all(harness.browser.contexts().map((context) => context.close()));
}

export interface AppStatus {
  frames: number;
  builds: number;
  building: boolean;
  scene: string;
  triangles: number;
  lastError: string;
  generationMs: number;
  simFrame: number;
  /** The mesh file the ground is ('' for a generated terrain) and the triangles its installed BVH covers. */
  meshFile: string;
  bvhTriangles: number;
}

export function appStatus(page: Page): Promise<AppStatus> {
  return page.evaluate(() => (window as unknown as { colliderscope: { status: AppStatus } }).colliderscope.status);
}

/** Waits until the app has finished `builds` terrain builds and is idle. */
export async function waitForBuilds(page: Page, builds: number, timeout = 60_000): Promise<AppStatus> {
  await page.waitForFunction(
    (n) => {
      const app = (window as unknown as { colliderscope?: { status: AppStatus } }).colliderscope;
      return app !== undefined && app.status.builds >= n && !app.status.building;
    },
    builds,
    { timeout },
  );
  return appStatus(page);
}

/** Waits until the terrain's BVH has been built `builds` times (it is built in a worker after each terrain). */
export async function waitForBvh(page: Page, builds = 1): Promise<void> {
  await page.waitForFunction(
    (n) => (window as unknown as { colliderscope: { status: { bvhBuilds: number } } }).colliderscope.status.bvhBuilds >= n,
    builds,
    { timeout: 90_000 },
  );
}
