import type { OperationName } from './opcodes';

/** The built-in functions the language offers, with the operation each compiles to. */
export interface Builtin {
  readonly operation: OperationName;
  readonly arity: number;
  readonly signature: string;
}

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ['dot', { operation: 'dot', arity: 2, signature: 'dot(a, b)' }],
  ['cross', { operation: 'cross', arity: 2, signature: 'cross(a, b)' }],
  ['length', { operation: 'length', arity: 1, signature: 'length(v)' }],
  ['normalize', { operation: 'normalize', arity: 1, signature: 'normalize(v)' }],
  ['min', { operation: 'min', arity: 2, signature: 'min(a, b)' }],
  ['max', { operation: 'max', arity: 2, signature: 'max(a, b)' }],
  ['abs', { operation: 'abs', arity: 1, signature: 'abs(v)' }],
  ['floor', { operation: 'floor', arity: 1, signature: 'floor(v)' }],
  ['frac', { operation: 'frac', arity: 1, signature: 'frac(v)' }],
  ['sqrt', { operation: 'sqrt', arity: 1, signature: 'sqrt(v)' }],
  ['sin', { operation: 'sin', arity: 1, signature: 'sin(v)' }],
  ['cos', { operation: 'cos', arity: 1, signature: 'cos(v)' }],
  ['lerp', { operation: 'lerp', arity: 3, signature: 'lerp(a, b, t)' }],
  ['clamp', { operation: 'clamp', arity: 3, signature: 'clamp(v, low, high)' }],
  ['saturate', { operation: 'saturate', arity: 1, signature: 'saturate(v)' }],
  ['select', { operation: 'select', arity: 3, signature: 'select(mask, whereNonZero, whereZero)' }],
  ['noise', { operation: 'noise', arity: 1, signature: 'noise(p)' }],
]);

/** Levenshtein distance, for "did you mean" hints on misspelt names. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    // The distance is at least the difference in length: a name of a million characters costs nothing here.
    if (Math.abs(name.length - candidate.length) >= bestDistance) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
