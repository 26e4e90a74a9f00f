import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../src', import.meta.url));
/** The page layers; everything else under src/ is the core. */
const PAGE_LAYERS = ['view', 'ui', 'app'];

function coreFiles(directory: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    const top = relative(SOURCE, path).split(/[\\/]/)[0]!;
    if (PAGE_LAYERS.includes(top)) continue;
    if (statSync(path).isDirectory()) files.push(...coreFiles(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}

/** Code without comments and string contents, so prose mentioning "window." does not count. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

describe('layering', () => {
  it('keeps the core free of three.js, the DOM and the page layers', () => {
    const offenders: string[] = [];
    for (const file of coreFiles(SOURCE)) {
      const code = codeOf(readFileSync(file, 'utf8'));
      const where = relative(SOURCE, file);
      if (/from\s+['"]three(\/[^'"]*)?['"]/.test(code)) offenders.push(`${where}: imports three.js`);
      if (/from\s+['"](lil-gui|stats\.js)['"]/.test(code)) offenders.push(`${where}: imports a GUI library`);
      if (/from\s+['"][./]*\/(view|ui|app)\//.test(code)) offenders.push(`${where}: imports a page layer`);
      if (/\b(document\.|window\.|HTMLElement\b|HTMLCanvasElement\b|localStorage\b|requestAnimationFrame\b)/.test(code))
        offenders.push(`${where}: touches the DOM`);
    }
    expect(offenders).toEqual([]);
  });
});
