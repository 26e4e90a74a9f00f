import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CORE_LAYERS,
  importCircles,
  importGraphOf,
  layerViolations,
  PAGE_LAYERS,
  readCoreSources,
  specifiersIn,
  unusedAllowances,
  type AllowedImport,
} from '../../tools/layering';

const SOURCE = fileURLToPath(new URL('../../src', import.meta.url));

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

  it('keeps the adapters (src/adapters) off the page: they import the core and three.js, never app, ui or view', () => {
    const offenders: string[] = [];
    const walk = (directory: string): void => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && /from\s+['"][./]*\/(view|ui|app)\//.test(codeOf(readFileSync(path, 'utf8'))))
          offenders.push(relative(SOURCE, path));
      }
    };
    walk(join(SOURCE, 'adapters'));
    expect(offenders).toEqual([]);
  });

  // The layer order lives in tools/layering.ts (CORE_LAYERS), shared with `npx tsx tools/import-graph.ts`.
  const graph = importGraphOf(readCoreSources(fileURLToPath(new URL('../..', import.meta.url))));

  it('reads the real import graph', () => {
    expect(graph.files.length).toBeGreaterThan(150);
    expect(graph.imports.get('src/query/rays/simdRays.ts')).toContain('src/platform/loadWasm.ts');
    expect(graph.imports.get('src/query/rays/simdRays.ts')).toContain('src/platform/generated/rays.wasm');
  });

  it('places every core file in a layer, and every import points down the layer order', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('lets no stale allowance through', () => {
    expect(unusedAllowances(graph)).toEqual([]);
  });

  it('has no import circle in the core', () => {
    expect(importCircles(graph).map((circle) => circle.path.join(' → '))).toEqual([]);
  });
});

describe('layering checks', () => {
  it('read imports from the syntax, not from comments or strings', () => {
    const text = [
      "import type { BVH } from '../bvh/buildBVH';",
      "export * from './rays/index';",
      "const kernel = await import('./kernel');",
      "const url = new URL('./generated/rays.wasm', import.meta.url);",
      "type Nodes = import('../bvh/quantizedLayout').QuantizedNodes;",
      "import 'three';",
      "// import { nothing } from './commented';",
      'const prose = "import { nothing } from \'./quoted\'";',
    ].join('\n');
    expect(specifiersIn('src/query/example.ts', text)).toEqual([
      '../bvh/buildBVH',
      './rays/index',
      './kernel',
      './generated/rays.wasm',
      '../bvh/quantizedLayout',
    ]);
  });

  it('report an upward import, an import between layers of one level, a page import and a file in no layer', () => {
    const graph = importGraphOf({
      'src/platform/loadWasm.ts': "import type { BVH } from '../bvh/buildBVH';",
      'src/bvh/buildBVH.ts': "import { Random } from '../math/random';",
      'src/math/random.ts': '',
      'src/particles/particleSystem.ts': "import { ActorWorld } from '../actors/actorWorld';",
      'src/actors/actorWorld.ts': "import { generateTerrain } from '../terrain/index';",
      'src/terrain/index.ts': '',
      'src/newLayer/thing.ts': '',
      'src/query/probe.ts': "import { stage } from '../view/stage';",
    });
    expect(layerViolations(graph, CORE_LAYERS, [])).toEqual([
      'src/newLayer/thing.ts: layer newLayer is in no level of CORE_LAYERS (tools/layering.ts)',
      'src/particles/particleSystem.ts → src/actors/actorWorld.ts: particles imports actors (same level)',
      'src/platform/loadWasm.ts → src/bvh/buildBVH.ts: platform imports bvh',
      'src/query/probe.ts → src/view/stage.ts: query imports view, which is no core layer',
    ]);
  });

  it('let an allowed import through, and name an allowance no import needs', () => {
    const graph = importGraphOf({
      'src/scene/sceneSystems.ts': "import { PARTICLE_MODES } from '../particles/particleSystem';",
      'src/particles/particleSystem.ts': '',
    });
    const used: AllowedImport = { from: 'src/scene/sceneSystems.ts', layer: 'particles', reason: 'test' };
    const stale: AllowedImport = { from: 'src/scene/sceneSystems.ts', layer: 'actors', reason: 'test' };
    expect(layerViolations(graph, CORE_LAYERS, [used, stale])).toEqual([]);
    expect(unusedAllowances(graph, CORE_LAYERS, [used, stale])).toEqual([stale]);
  });

  it('find a two-file circle, a longer one and a file importing itself', () => {
    const graph = importGraphOf({
      'src/query/a.ts': "import { b } from './b';",
      'src/query/b.ts': "export { a } from './a';",
      'src/field/lexer.ts': "import { parse } from './parser';",
      'src/field/parser.ts': "import type { Program } from './program';",
      'src/field/program.ts': "import { lex } from './lexer';\nimport { a } from '../query/a';",
      'src/math/self.ts': "import { again } from './self';",
      'src/math/alone.ts': "import { again } from './self';",
    });
    expect(importCircles(graph)).toEqual([
      {
        files: ['src/field/lexer.ts', 'src/field/parser.ts', 'src/field/program.ts'],
        path: ['src/field/lexer.ts', 'src/field/parser.ts', 'src/field/program.ts', 'src/field/lexer.ts'],
      },
      { files: ['src/math/self.ts'], path: ['src/math/self.ts', 'src/math/self.ts'] },
      { files: ['src/query/a.ts', 'src/query/b.ts'], path: ['src/query/a.ts', 'src/query/b.ts', 'src/query/a.ts'] },
    ]);
  });
});
