/**
 * Errors a user can act on. Every boundary (scene files, terrain parameters, field programs, API input)
 * throws one of these, naming where the problem is and what was expected, and leaves the caller's last
 * good state untouched.
 */
export interface ErrorLocation {
  /** The file the value came from, when it came from one. */
  file?: string;
  /** A dotted path to the offending field, e.g. `terrain.octaves`. */
  field?: string;
  line?: number;
  column?: number;
}

export class ColliderscopeError extends Error {
  readonly location: ErrorLocation;

  constructor(message: string, location: ErrorLocation = {}) {
    super(ColliderscopeError.prefix(location) + message);
    this.name = 'ColliderscopeError';
    this.location = location;
  }

  private static prefix(location: ErrorLocation): string {
    const parts: string[] = [];
    if (location.file !== undefined) {
      let where = location.file;
      if (location.line !== undefined) where += `:${location.line}`;
      if (location.column !== undefined) where += `:${location.column}`;
      parts.push(where);
    }
    if (location.field !== undefined) parts.push(location.field);
    return parts.length > 0 ? parts.join(': ') + ': ' : '';
  }
}

/** A value outside its documented domain: says which field, what was expected and what was given. */
export class InvalidParameterError extends ColliderscopeError {
  readonly expected: string;
  readonly received: unknown;

  constructor(field: string, expected: string, received: unknown, file?: string) {
    super(`expected ${expected}, got ${describeValue(received)}`, file === undefined ? { field } : { field, file });
    this.name = 'InvalidParameterError';
    this.expected = expected;
    this.received = received;
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'symbol') return String(value);
  return typeof value === 'function' ? 'a function' : 'an object';
}
