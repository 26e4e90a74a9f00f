/**
 * The core's layer order and the checks that hold it, shared by tests/unit/layering.test.ts and
 * tools/import-graph.ts. The checks take an import graph rather than reading the disk themselves, so a
 * test can hand them a deliberately broken graph and see it reported.
 *
 * A file's layer is its first folder under src/ (`src/query/rays/castRays.ts` → query), or its name for
 * a file at the top (`src/core.ts` → core).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The core's layers, bottom to top. A file may import its own layer and any layer on a lower level;
 * layers on one level do not import each other. New folders under src/ must be placed here before the
 * layering test passes, so every layer's place is a decision, not an accident.
 */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  // WebAssembly loading, memory, the emitter, SIMD detection, the AssemblyScript sources; and the typed
  // errors every boundary throws. Neither knows anything else of the project.
  ['platform', 'errors'],
  ['math'],
  ['terrain'],
  ['bvh'],
  ['query'],
  ['field'],
  // The scene-file format and its validation helpers; each system owns its own section.
  ['scene'],
  // Mesh files (OBJ, STL, glTF) read into flat positions and indices; glTF's JSON is read with the scene's helpers.
  ['meshes'],
  // What a system sees: the World and SimSystem interfaces and the timing ring. Below the systems, which
  // import it instead of the sandbox.
  ['world'],
  // The systems, each a SimSystem owning its scene section (the broad-phase folder holds its strategies too).
  ['broadphase'],
  ['wind', 'actors', 'particles', 'capsules', 'boxProbe', 'emitters', 'cracks'],
  // The sandbox: steps whatever systems it is given, knows none of them.
  ['sim'],
  // The catalog that knows every system, the headless start and loading every kernel, then the public face.
  ['systems'],
  ['headless', 'loadKernels'],
  ['core'],
];

/**
 * Outside the core, which never imports them (the layering test checks that separately): the page
 * (app, ui, view) and the adapters to other libraries (adapters/three imports three.js and the core,
 * never the page).
 */
export const PAGE_LAYERS: readonly string[] = ['app', 'ui', 'view', 'adapters'];

/** An import the layer order forbids but that is let through for a reason given here. */
export interface AllowedImport {
  /** The importing file, from the repository root. */
  readonly from: string;
  /** The layer it may import. */
  readonly layer: string;
  readonly reason: string;
}

/**
 * Kept short, and emptied as the reasons go: the layering test fails on an entry no import needs any
 * more, so a stale allowance cannot hide a later upward import.
 */
export const ALLOWED_IMPORTS: readonly AllowedImport[] = [];

export interface ImportGraph {
  /** Every file, as a path from the repository root (`src/query/rays/castRays.ts`), sorted. */
  readonly files: readonly string[];
  /** What each file imports, resolved to paths like the files' (a `.wasm` asset keeps its name). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

export function layerOf(file: string): string {
  const parts = file.split('/');
  const top = parts[0] === 'src' ? parts.slice(1) : parts;
  return top.length === 1 ? top[0]!.replace(/\.ts$/, '') : top[0]!;
}

/**
 * The relative specifiers a file names: static and dynamic imports, re-exports, `import('…')` types and
 * `new URL('…', import.meta.url)` assets. Read from the syntax tree, so an import in a comment or a
 * string does not count and a type-only import does.
 */
export function specifiersIn(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const take = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node) && node.text.startsWith('.')) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) take(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) take(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) take(node.argument.literal);
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && isImportMetaUrl(node.arguments?.[1]))
      take(node.arguments?.[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isImportMetaUrl(node: ts.Node | undefined): boolean {
  return (
    node !== undefined &&
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
    node.name.text === 'url'
  );
}

/** The graph of the given sources (path from the repository root → text). */
export function importGraphOf(sources: Readonly<Record<string, string>>): ImportGraph {
  const files = Object.keys(sources).sort();
  const known = new Set(files);
  const resolve = (from: string, specifier: string): string => {
    const path = posix.normalize(posix.join(posix.dirname(from), specifier));
    for (const candidate of [path, `${path}.ts`, `${path}/index.ts`]) if (known.has(candidate)) return candidate;
    return posix.extname(path) === '' ? `${path}.ts` : path;
  };
  const imports = new Map<string, string[]>();
  for (const file of files) imports.set(file, [...new Set(specifiersIn(file, sources[file]!).map((specifier) => resolve(file, specifier)))]);
  return { files, imports };
}

/** Every TypeScript file of the core under `repositoryRoot`/src, keyed by its path from the root. */
export function readCoreSources(repositoryRoot: string): Record<string, string> {
  const sources: Record<string, string> = {};
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      const file = relative(repositoryRoot, path).split(sep).join('/');
      if (statSync(path).isDirectory()) {
        if (!PAGE_LAYERS.includes(layerOf(file))) walk(path);
      } else if (name.endsWith('.ts')) sources[file] = readFileSync(path, 'utf8');
    }
  };
  walk(join(repositoryRoot, 'src'));
  return sources;
}

function levelsOf(layers: readonly (readonly string[])[]): Map<string, number> {
  const levels = new Map<string, number>();
  layers.forEach((level, index) => level.forEach((layer) => levels.set(layer, index)));
  return levels;
}

interface ForbiddenImport {
  readonly message: string;
  /** The entry of the allow-list that lets it through, if one does. */
  readonly allowance: AllowedImport | undefined;
}

/** Every import in `graph` that the layer order forbids, whether or not `allowed` lets it through. */
function forbiddenImports(graph: ImportGraph, layers: readonly (readonly string[])[], allowed: readonly AllowedImport[]): ForbiddenImport[] {
  const levels = levelsOf(layers);
  const found: ForbiddenImport[] = [];
  for (const from of graph.files) {
    const fromLayer = layerOf(from);
    const fromLevel = levels.get(fromLayer);
    if (fromLevel === undefined) continue;
    for (const to of graph.imports.get(from) ?? []) {
      const toLayer = layerOf(to);
      const toLevel = levels.get(toLayer);
      if (toLayer === fromLayer || (toLevel !== undefined && toLevel < fromLevel)) continue;
      const what = toLevel === undefined ? `${toLayer}, which is no core layer` : toLevel === fromLevel ? `${toLayer} (same level)` : toLayer;
      const message = `${from} → ${to}: ${fromLayer} imports ${what}`;
      const allowance = allowed.find((entry) => entry.from === from && entry.layer === toLayer);
      found.push({ message, allowance });
    }
  }
  return found;
}

/**
 * What breaks the layer order: a core file in no listed layer, and every import of a higher layer, of
 * another layer on the same level or of a layer outside the core, unless `allowed` lets it through.
 */
export function layerViolations(
  graph: ImportGraph,
  layers: readonly (readonly string[])[] = CORE_LAYERS,
  allowed: readonly AllowedImport[] = ALLOWED_IMPORTS,
): string[] {
  const levels = levelsOf(layers);
  const unplaced = graph.files
    .filter((file) => !levels.has(layerOf(file)))
    .map((file) => `${file}: layer ${layerOf(file)} is in no level of CORE_LAYERS (tools/layering.ts)`);
  const forbidden = forbiddenImports(graph, layers, allowed).filter((entry) => entry.allowance === undefined);
  return [...unplaced, ...forbidden.map((entry) => entry.message)];
}

/** The entries of `allowed` that no import in `graph` needs. */
export function unusedAllowances(
  graph: ImportGraph,
  layers: readonly (readonly string[])[] = CORE_LAYERS,
  allowed: readonly AllowedImport[] = ALLOWED_IMPORTS,
): AllowedImport[] {
  const used = new Set(forbiddenImports(graph, layers, allowed).map((entry) => entry.allowance));
  return allowed.filter((entry) => !used.has(entry));
}

/** Files that import one another in a circle, and one way round it (its first file repeated at the end). */
export interface ImportCircle {
  readonly files: readonly string[];
  readonly path: readonly string[];
}

/**
 * The import circles of `graph`: its strongly connected components with more than one file, or a file
 * that imports itself (Tarjan's algorithm), each with a shortest way round from its first file.
 */
export function importCircles(graph: ImportGraph): ImportCircle[] {
  const inGraph = new Set(graph.files);
  const targets = (file: string): string[] => (graph.imports.get(file) ?? []).filter((to) => inGraph.has(to));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of targets(file)) {
      if (!index.has(to)) {
        connect(to);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(to)!));
      } else if (onStack.has(to)) lowLink.set(file, Math.min(lowLink.get(file)!, index.get(to)!));
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || targets(file).includes(file)) components.push(component.sort());
  };
  for (const file of graph.files) if (!index.has(file)) connect(file);
  return components.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)).map((files) => ({ files, path: shortestWayRound(files[0]!, new Set(files), targets) }));
}

function shortestWayRound(start: string, within: ReadonlySet<string>, targets: (file: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head]!;
    for (const to of targets(file)) {
      if (to === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (within.has(to) && !cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** How many imports go from each layer to each other layer (a layer's imports of itself left out). */
export function layerGraph(graph: ImportGraph): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const from of graph.files) {
    const fromLayer = layerOf(from);
    const row = counts.get(fromLayer) ?? new Map<string, number>();
    counts.set(fromLayer, row);
    for (const to of graph.imports.get(from) ?? []) {
      const toLayer = layerOf(to);
      if (toLayer !== fromLayer) row.set(toLayer, (row.get(toLayer) ?? 0) + 1);
    }
  }
  return counts;
}
