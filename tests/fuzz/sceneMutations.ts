import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { ColliderscopeError } from '../../src/errors';
import { BUILTINS } from '../../src/field/builtins';
import { compileField } from '../../src/field/compile';
import { evaluateField, type FieldBackend } from '../../src/field/evaluate';
import { createHeadlessSandbox, runFixedSteps } from '../../src/headless';
import type { SceneDefinition } from '../../src/scene/scene';
import { parseSceneText } from '../../src/systems';
import { SCENES_DIR, presetNames, readField } from '../../tools/sceneFiles';

/**
 * Mutation fuzzing of the boundary: every preset scene and every field program, mutated at random
 * (values of the wrong type, huge and tiny numbers, NaN-like strings, unknown and prototype keys, deep
 * nesting, a 10 MB string, truncated or garbled text; programs with tokens deleted, repeated, swapped
 * or replaced). Each input must either be refused with a ColliderscopeError that locates the problem
 * (the file and a field, or a line and column), or be accepted and run: a scene a few frames headless,
 * a program on every TypeScript back end. Any other exception is a crash and fails the property.
 */

export interface Source {
  readonly file: string;
  readonly text: string;
}

export function presetSources(): Source[] {
  return presetNames().map((name) => ({ file: `scenes/${name}.json`, text: readFileSync(`${SCENES_DIR}${name}.json`, 'utf8') }));
}

export function fieldSources(): Source[] {
  return readdirSync(`${SCENES_DIR}fields`)
    .filter((name) => name.endsWith('.vf'))
    .sort()
    .map((name) => ({ file: `scenes/fields/${name}`, text: readFileSync(`${SCENES_DIR}fields/${name}`, 'utf8') }));
}

// ---------------------------------------------------------------------------------------------------
// Scene mutations

/** A JSON value written out as text, so that mutations can hold what JSON.stringify would not make (NaN-like tokens, depth). */
type Replacement = { readonly json: string };

const TEN_MEGABYTES = 10 * 1024 * 1024;
let hugeStringJson: string | undefined;
/** Built once: a 10 MB JSON string. */
function hugeString(): string {
  hugeStringJson ??= JSON.stringify('x'.repeat(TEN_MEGABYTES));
  return hugeStringJson;
}

const replacementArbitrary: fc.Arbitrary<Replacement> = fc.oneof(
  {
    arbitrary: fc
      .constantFrom<unknown>(
        null,
        true,
        false,
        0,
        -1,
        1.5,
        1e308,
        -1e308,
        5e-324,
        2 ** 53 + 1,
        4294967296,
        'NaN',
        'Infinity',
        '-0',
        '',
        '🙂',
        [],
        {},
        [1, 2, 3],
        { x: 1 },
      )
      .map((value) => ({ json: JSON.stringify(value) })),
    weight: 8,
  },
  // Tokens JSON.parse reads as numbers out of range, or refuses.
  {
    arbitrary: fc
      .constantFrom('-0', '1e999', '-1e999', '1e-999', '0.0000000000000000000001', '123456789012345678901234567890')
      .map((json) => ({ json })),
    weight: 2,
  },
  { arbitrary: fc.double().map((value) => ({ json: JSON.stringify(value) })), weight: 2 },
  { arbitrary: fc.string({ maxLength: 20 }).map((value) => ({ json: JSON.stringify(value) })), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(1, 50, 5000, 100_000), fc.boolean())
      .map(([depth, arrays]) => ({ json: arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) })),
    weight: 1,
  },
  { arbitrary: fc.constant(null).map(() => ({ json: hugeString() })), weight: 1 },
);

const keyArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'prototype',
    '',
    'x',
    'seed',
    'terrain',
    'systems',
    'count',
    'é',
    '\u0000',
  ),
  fc.string({ maxLength: 8 }),
);

export type SceneMutation =
  | { readonly kind: 'replace'; readonly at: number; readonly value: Replacement }
  | { readonly kind: 'renumber'; readonly at: number; readonly value: number }
  | { readonly kind: 'addKey'; readonly at: number; readonly key: string; readonly value: Replacement }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'truncate'; readonly fraction: number }
  | { readonly kind: 'insertText'; readonly fraction: number; readonly text: string }
  | { readonly kind: 'deleteText'; readonly fraction: number; readonly length: number };

const fraction = fc.double({ min: 0, max: 1, noNaN: true });

/** Numbers likely to pass validation somewhere and stress what runs: zeros, ends of ranges, tiny and huge. */
const numberArbitrary: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 2, 3, 16, 17, 100, 1e-300, 5e-324, 1e6, 65536, 100000, 1e15, -1e6, 89.999, 360, 4294967295),
  fc.double({ min: -1e9, max: 1e9, noNaN: true }),
);

export const sceneMutationArbitrary: fc.Arbitrary<SceneMutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('renumber' as const), at: fc.nat(), value: numberArbitrary }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: replacementArbitrary }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('addKey' as const), at: fc.nat(), key: keyArbitrary, value: replacementArbitrary }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('truncate' as const), fraction }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('insertText' as const),
      fraction,
      text: fc.oneof(fc.constantFrom(',', '}', ']', '"', ':', 'NaN', '\uFEFF', '\\', '/*', '1e999'), fc.string({ maxLength: 3 })),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('deleteText' as const), fraction, length: fc.integer({ min: 1, max: 8 }) }), weight: 2 },
);

export interface SceneCase {
  readonly preset: number;
  readonly mutations: readonly SceneMutation[];
}

export const sceneCaseArbitrary: fc.Arbitrary<SceneCase> = fc.record({
  preset: fc.nat(),
  mutations: fc.array(sceneMutationArbitrary, { minLength: 1, maxLength: 3 }),
});

/** JSON written with placeholders where replacements go, so that a replacement's text is spliced in as it is. */
interface Template {
  value: unknown;
  replacements: string[];
}

/** Printable on purpose: JSON.stringify escapes control characters, which would hide the marker. */
const PLACEHOLDER = '@@replacement@@';

/** Every container and value of a parsed JSON document, as paths of keys. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const key of Object.keys(value)) paths((value as Record<string, unknown>)[key], [...prefix, key], out);
  return out;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const key of path) value = (value as Record<string | number, unknown>)[key];
  return value;
}

function setOwn(target: object, key: string | number, value: unknown): void {
  // defineProperty, so that '__proto__' becomes an own key (as JSON.parse makes it), not the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function placeholder(template: Template, replacement: Replacement): string {
  template.replacements.push(replacement.json);
  return `${PLACEHOLDER}${template.replacements.length - 1}`;
}

function applyValueMutation(template: Template, mutation: SceneMutation & { at: number }): void {
  if (mutation.kind === 'renumber') {
    // Only the numbers of the preset: the value keeps its type, so more mutants get past validation and run.
    const numbers = paths(template.value).filter((path) => typeof valueAt(template.value, path) === 'number');
    const path = numbers[mutation.at % Math.max(1, numbers.length)];
    if (path === undefined || path.length === 0) return;
    setOwn(valueAt(template.value, path.slice(0, -1)) as object, path[path.length - 1]!, mutation.value);
    return;
  }
  const all = paths(template.value);
  const path = all[mutation.at % all.length]!;
  const parentPath = path.slice(0, -1);
  let parent: unknown = template.value;
  for (const key of parentPath) parent = (parent as Record<string | number, unknown>)[key];
  const last = path[path.length - 1];
  switch (mutation.kind) {
    case 'replace':
      if (last === undefined) template.value = placeholder(template, mutation.value);
      else setOwn(parent as object, last, placeholder(template, mutation.value));
      break;
    case 'addKey': {
      let target: unknown = template.value;
      for (const key of path) target = (target as Record<string | number, unknown>)[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        setOwn(target, mutation.key, placeholder(template, mutation.value));
      else if (Array.isArray(target)) target.push(placeholder(template, mutation.value));
      break;
    }
    case 'delete':
      if (last === undefined) template.value = undefined;
      else if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
      else delete (parent as Record<string, unknown>)[last];
      break;
    default:
      break;
  }
}

/** The mutated scene text. Value mutations first (on the parsed preset), then text mutations in order. */
export function mutateScene(original: string, mutations: readonly SceneMutation[]): string {
  const template: Template = { value: JSON.parse(original) as unknown, replacements: [] };
  for (const mutation of mutations) {
    if (mutation.kind === 'replace' || mutation.kind === 'renumber' || mutation.kind === 'addKey' || mutation.kind === 'delete')
      applyValueMutation(template, mutation);
  }
  let text = template.value === undefined ? '' : JSON.stringify(template.value, null, 1);
  text = text.replace(new RegExp(`"${PLACEHOLDER}(\\d+)"`, 'g'), (_, index: string) => template.replacements[Number(index)]!);
  for (const mutation of mutations) {
    const at = (fraction: number): number => Math.floor(fraction * text.length);
    if (mutation.kind === 'truncate') text = text.slice(0, at(mutation.fraction));
    else if (mutation.kind === 'insertText') text = text.slice(0, at(mutation.fraction)) + mutation.text + text.slice(at(mutation.fraction));
    else if (mutation.kind === 'deleteText') text = text.slice(0, at(mutation.fraction)) + text.slice(at(mutation.fraction) + mutation.length);
  }
  return text;
}

/** Counts and sizes beyond these are shrunk before running: the fuzzing is about odd values, not load. */
const RUN_CELLS = 32;
const RUN_COUNT = 200;
const COUNT_FIELDS = new Set(['particles', 'budget', 'count', 'tracers', 'rays']);

function capCounts(value: unknown): void {
  if (Array.isArray(value)) value.forEach(capCounts);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(record)) {
      if (COUNT_FIELDS.has(key) && typeof item === 'number') record[key] = Math.min(item, RUN_COUNT);
      else capCounts(item);
    }
  }
}

/** A copy of an accepted scene small enough to run in a unit test: 32 cells, at most 200 of anything. */
export function shrinkForRun(scene: SceneDefinition): SceneDefinition {
  const systems = structuredClone(scene.systems) as Record<string, object>;
  capCounts(systems);
  return { ...scene, terrain: { ...scene.terrain, cells: Math.min(scene.terrain.cells, RUN_CELLS) }, systems };
}

export type Outcome = 'refused' | 'accepted';

/**
 * Where the time went, in CPU milliseconds of this process (so that a busy machine does not turn a slow
 * case into a "hang"): deciding (parsing or compiling: the part that must never hang) and running what was accepted.
 */
export interface CaseTimes {
  decideMs: number;
  runMs: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Whether `error` is a project error that says where: the file and a field, or a line and column. */
function located(error: unknown, file: string | undefined): boolean {
  if (!(error instanceof ColliderscopeError)) return false;
  const where = error.location;
  if (file !== undefined && where.file !== file) return false;
  return where.field !== undefined || (where.line !== undefined && where.column !== undefined);
}

function describeError(error: unknown): string {
  return error instanceof Error
    ? `${error.name}: ${error.message.slice(0, 300)}\n${error.stack?.split('\n').slice(1, 6).join('\n') ?? ''}`
    : String(error);
}

/** Parses `text`; refused with a located error, or accepted and run `frames` frames headless. Throws on anything else. */
export function checkSceneText(text: string, file: string, frames = 2, times: CaseTimes = { decideMs: 0, runMs: 0 }): Outcome {
  let scene: SceneDefinition;
  const start = cpuMs();
  try {
    scene = parseSceneText(text, file);
  } catch (error) {
    if (located(error, file)) return 'refused';
    throw new Error(`${file}: parsing threw an error that is not a located ColliderscopeError: ${describeError(error)}`, { cause: error });
  } finally {
    times.decideMs = cpuMs() - start;
  }
  const runStart = cpuMs();
  try {
    const sandbox = createHeadlessSandbox(shrinkForRun(scene), { readField });
    runFixedSteps(sandbox, frames);
  } catch (error) {
    // A section can name a field program that is not there: refused where it is used, still located.
    if (located(error, undefined)) return 'refused';
    throw new Error(`${file}: an accepted scene crashed while running: ${describeError(error)}`, { cause: error });
  } finally {
    times.runMs = cpuMs() - runStart;
  }
  return 'accepted';
}

export function describeSceneCase(sources: readonly Source[], test: SceneCase): string {
  const source = sources[test.preset % sources.length]!;
  const text = mutateScene(source.text, test.mutations);
  return `${source.file} mutated by ${JSON.stringify(test.mutations, (_, value: unknown) => (typeof value === 'string' && value.length > 200 ? `${value.slice(0, 40)}… (${value.length} chars)` : value))}\n  text: ${text.length > 400 ? text.slice(0, 400) + '…' : text}`;
}

export function runSceneCase(sources: readonly Source[], test: SceneCase, times?: CaseTimes): Outcome {
  const source = sources[test.preset % sources.length]!;
  return checkSceneText(mutateScene(source.text, test.mutations), source.file, 2, times);
}

// ---------------------------------------------------------------------------------------------------
// Field program mutations

/** Tokens as the lexer would roughly see them; whitespace and comments kept so that edits keep the rest readable. */
const TOKEN_PATTERN = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][A-Za-z0-9_]*|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[+\-*/=<>!]=|[^\s]/g;

export function splitTokens(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

const TOKEN_POOL = [
  'float4',
  'float3',
  'float',
  'int',
  'const',
  'struct',
  'void',
  'in',
  'out',
  'return',
  'if',
  'for',
  'while',
  'cross',
  'dot',
  'normalize',
  'length',
  'noise',
  'min',
  'max',
  'abs',
  'sqrt',
  'lerp',
  'saturate',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ';',
  ',',
  '.',
  '.xyzw',
  '.wzyx',
  '.xxxxx',
  '.q',
  ':',
  '+',
  '-',
  '*',
  '/',
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '==',
  '!',
  '<',
  '?',
  'CHANNEL0',
  'CHANNEL1',
  'CHANNEL2',
  'CHANNEL99999999999',
  'vf_in',
  'vf_out',
  'position',
  'wind',
  'in.position',
  'out.wind',
  '0',
  '1',
  '-1',
  '0.5',
  '1e39',
  '-1e39',
  '1e-50',
  '1e308',
  '1e999',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '0x1F',
  '1.2.3',
  '.5e',
  '"',
  "'",
  '#',
  '@',
  '\\',
  '\u0000',
  '€',
  '\uFEFF',
  '/*',
  '*/',
  '//',
  '\n',
];

export type FieldEdit =
  | { readonly kind: 'delete' | 'duplicate' | 'swap' | 'truncate'; readonly at: number }
  | { readonly kind: 'number' | 'operator' | 'builtin'; readonly at: number; readonly token: string }
  | { readonly kind: 'replace' | 'insert'; readonly at: number; readonly token: string }
  | { readonly kind: 'repeat'; readonly at: number; readonly times: number };

/** Edits that keep the program's shape, so many mutants still compile and run: other numbers, operators, built-ins. */
const NUMBER_TOKENS = ['0', '0.0', '1', '-1', '0.5', '1e-45', '1e-38', '3.4e38', '1e38', '1e39', '100000', '0.000001'];
const OPERATOR_TOKENS = ['+', '-', '*', '/'];
const BUILTIN_TOKENS = [...BUILTINS.keys()];

export const fieldEditArbitrary: fc.Arbitrary<FieldEdit> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('number' as const), at: fc.nat(), token: fc.constantFrom(...NUMBER_TOKENS) }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('operator' as const), at: fc.nat(), token: fc.constantFrom(...OPERATOR_TOKENS) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('builtin' as const), at: fc.nat(), token: fc.constantFrom(...BUILTIN_TOKENS) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const, 'swap' as const), at: fc.nat() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('replace' as const, 'insert' as const), at: fc.nat(), token: fc.constantFrom(...TOKEN_POOL) }),
    weight: 8,
  },
  // Long runs of one token: deep parentheses, long expressions, a huge literal.
  { arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), times: fc.constantFrom(100, 10_000, 200_000) }), weight: 1 },
);

export interface FieldCase {
  readonly program: number;
  readonly edits: readonly FieldEdit[];
}

export const fieldCaseArbitrary: fc.Arbitrary<FieldCase> = fc.record({
  program: fc.nat(),
  edits: fc.array(fieldEditArbitrary, { minLength: 1, maxLength: 4 }),
});

/** Edits apply to the significant tokens (whitespace and comments are left where they are). */
export function mutateField(original: string, edits: readonly FieldEdit[]): string {
  const tokens = splitTokens(original);
  for (const edit of edits) {
    if (edit.kind === 'number' || edit.kind === 'operator' || edit.kind === 'builtin') {
      const matches = (token: string): boolean =>
        edit.kind === 'number' ? /^(\d|\.\d)/.test(token) : edit.kind === 'operator' ? OPERATOR_TOKENS.includes(token) : BUILTINS.has(token);
      const candidates = tokens.flatMap((token, i) => (matches(token) ? [i] : []));
      if (candidates.length > 0) tokens[candidates[edit.at % candidates.length]!] = edit.token;
      continue;
    }
    const significant = tokens.flatMap((token, i) => (/^\s+$|^\/\/|^\/\*/.test(token) ? [] : [i]));
    if (significant.length === 0) break;
    const i = significant[edit.at % significant.length]!;
    switch (edit.kind) {
      case 'delete':
        tokens.splice(i, 1);
        break;
      case 'duplicate':
        tokens.splice(i, 0, tokens[i]!);
        break;
      case 'swap': {
        const j = significant[(edit.at + 1) % significant.length]!;
        [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
        break;
      }
      case 'truncate':
        tokens.length = i;
        break;
      case 'replace':
        tokens[i] = edit.token;
        break;
      case 'insert':
        tokens.splice(i, 0, ' ', edit.token, ' ');
        break;
      case 'repeat':
        tokens[i] = tokens[i]!.repeat(edit.times);
        break;
    }
  }
  return tokens.join('');
}

const TYPESCRIPT_BACKENDS: readonly FieldBackend[] = ['interpreter', 'jit'];
/** Points at the origin, ordinary places, on a program's usual centres, and far away. */
const POSITIONS = new Float32Array([0, 0, 0, 0, 0, 10, 0, 0, 3, 4, 5, 0, -20, 1, 7, 0, 1e30, -1e30, 1e30, 0, 1e-30, 0, -1e-30, 0]);

/** Compiles `text`; refused with a line and column, or accepted and evaluated on each TypeScript back end. Throws on anything else. */
export function checkFieldText(text: string, file: string, times: CaseTimes = { decideMs: 0, runMs: 0 }): Outcome {
  let program;
  const start = cpuMs();
  try {
    program = compileField(text, { file });
  } catch (error) {
    if (located(error, file) && error instanceof ColliderscopeError && error.location.line !== undefined) return 'refused';
    throw new Error(`${file}: compiling threw an error that is not a ColliderscopeError with line and column: ${describeError(error)}`, {
      cause: error,
    });
  } finally {
    times.decideMs = cpuMs() - start;
  }
  const runStart = cpuMs();
  for (const backend of TYPESCRIPT_BACKENDS) {
    const wind = new Float32Array(POSITIONS.length);
    try {
      evaluateField(program, POSITIONS, wind, { backend });
    } catch (error) {
      throw new Error(`${file}: a compiled program crashed on the ${backend}: ${describeError(error)}`, { cause: error });
    }
  }
  times.runMs = cpuMs() - runStart;
  return 'accepted';
}

export function describeFieldCase(sources: readonly Source[], test: FieldCase): string {
  const source = sources[test.program % sources.length]!;
  const text = mutateField(source.text, test.edits);
  return `${source.file} edited by ${JSON.stringify(test.edits)}\n  text: ${text.length > 600 ? text.slice(0, 600) + '…' : text}`;
}

export function runFieldCase(sources: readonly Source[], test: FieldCase, times?: CaseTimes): Outcome {
  const source = sources[test.program % sources.length]!;
  return checkFieldText(mutateField(source.text, test.edits), source.file, times);
}
