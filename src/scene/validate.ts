import { ColliderscopeError, InvalidParameterError, describeValue } from '../errors';

/**
 * Small checkers for JSON read at a boundary. Each takes the value, the dotted field path and the file,
 * and throws an error naming all three; together they keep scene parsing declarative.
 */
export interface Where {
  file: string;
  field: string;
}

export function child(where: Where, key: string | number): Where {
  return { file: where.file, field: typeof key === 'number' ? `${where.field}[${key}]` : where.field ? `${where.field}.${key}` : key };
}

export function expectObject(value: unknown, where: Where): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParameterError(where.field || '(top level)', 'an object', value, where.file);
  }
  return value as Record<string, unknown>;
}

/** Rejects keys outside `allowed`, so a misspelt field is an error instead of being silently ignored. */
export function expectKnownKeys(object: Record<string, unknown>, allowed: readonly string[], where: Where): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw new ColliderscopeError(`unknown field ${JSON.stringify(key)}; expected one of ${allowed.join(', ')}`, {
        file: where.file,
        field: child(where, key).field,
      });
    }
  }
}

export function expectNumber(value: unknown, where: Where, min = -Infinity, max = Infinity, integer = false): number {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
  if (!ok) {
    const range = min === -Infinity && max === Infinity ? 'finite' : `in [${min}, ${max}]`;
    throw new InvalidParameterError(where.field, `${integer ? 'an integer' : 'a number'} ${range}`, value, where.file);
  }
  return value;
}

export function expectBoolean(value: unknown, where: Where): boolean {
  if (typeof value !== 'boolean') throw new InvalidParameterError(where.field, 'true or false', value, where.file);
  return value;
}

export function expectString(value: unknown, where: Where, maxLength = 2000): string {
  if (typeof value !== 'string' || value.length > maxLength) {
    throw new InvalidParameterError(where.field, `a string of at most ${maxLength} characters`, value, where.file);
  }
  return value;
}

export function expectVec3(value: unknown, where: Where): [number, number, number] {
  if (!Array.isArray(value) || value.length !== 3) {
    throw new InvalidParameterError(where.field, 'an array of 3 finite numbers [x, y, z]', value, where.file);
  }
  return [expectNumber(value[0], child(where, 0)), expectNumber(value[1], child(where, 1)), expectNumber(value[2], child(where, 2))];
}

export function expectOneOf<T extends string>(value: unknown, options: readonly T[], where: Where): T {
  if (typeof value !== 'string' || !(options as readonly string[]).includes(value)) {
    throw new ColliderscopeError(`expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}, got ${describeValue(value)}`, where);
  }
  return value as T;
}

/** Parses JSON text, turning a syntax error into one with the file, line and column. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const lineColumn = /line (\d+) column (\d+)/.exec(message);
    let line: number | undefined;
    let column: number | undefined;
    if (lineColumn !== null) {
      line = Number(lineColumn[1]);
      column = Number(lineColumn[2]);
    } else if (position !== null) {
      const offset = Number(position[1]);
      const before = text.slice(0, offset);
      line = before.split('\n').length;
      column = offset - before.lastIndexOf('\n');
    }
    const location = line === undefined ? { file } : { file, line, ...(column === undefined ? {} : { column }) };
    throw new ColliderscopeError(`not valid JSON: ${message.replace(/^JSON\.parse: /, '')}`, location);
  }
}
