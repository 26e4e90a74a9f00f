import { build } from 'vite';
import { BUILT_SITE_DIR } from './harness';
import { PROJECT_ROOT } from '../../tools/chromium';

/**
 * The browser project's global setup: builds the site once (a few seconds) for every file that tests
 * the built page. A page of the build is ready in about a second under SwiftShader, against four or five
 * through the dev server, which serves some 250 modules one by one.
 */
export default async function buildSite(): Promise<void> {
  await build({ root: PROJECT_ROOT, logLevel: 'warn', build: { outDir: BUILT_SITE_DIR, emptyOutDir: true } });
}
