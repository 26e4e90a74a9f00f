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
    } else {
      // V8 leaves the position out of some messages ("Unexpected end of JSON input", "Unexpected token 'x', … is
      // not valid JSON"): then the scanner below finds the offset, so every syntax error has a line and column.
      const offset = position !== null ? Number(position[1]) : jsonErrorOffset(text);
      if (offset >= 0) {
        const before = text.slice(0, offset);
        line = before.split('\n').length;
        column = offset - before.lastIndexOf('\n');
      }
    }
    const location = line === undefined ? { file } : { file, line, ...(column === undefined ? {} : { column }) };
    throw new ColliderscopeError(`not valid JSON: ${message.replace(/^JSON\.parse: /, '')}`, location);
  }
}

/**
 * The offset of the first character that makes `text` invalid JSON (text.length when it ends too early),
 * or −1 when it is valid. Iterative, so deep nesting cannot overflow the stack.
 */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  let i = 0;
  /** Open containers: 0 an array, 1 an object. */
  const open: number[] = [];
  const skipSpace = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const digits = (): boolean => {
    const start = i;
    while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
    return i > start;
  };
  const readString = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== 0x5c) {
        i++;
        continue;
      }
      i++;
      if (i < n && '"\\/bfnrt'.includes(text[i]!)) i++;
      else if (text[i] === 'u') {
        i++;
        for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) return false;
      } else return false;
    }
    return false;
  };
  const readKey = (): boolean => {
    skipSpace();
    if (text[i] !== '"' || !readString()) return false;
    skipSpace();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  const readScalar = (): boolean => {
    const c = text[i]!;
    if (c === '"') return readString();
    for (const word of ['true', 'false', 'null']) {
      if (c !== word[0]) continue;
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return false;
      return true;
    }
    if (c === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return false;
    if (text[i] === '.') {
      i++;
      if (!digits()) return false;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return false;
    }
    return true;
  };
  for (;;) {
    // A value starts here.
    skipSpace();
    if (i >= n) return n;
    if (text[i] === '{' || text[i] === '[') {
      const object = text[i] === '{';
      i++;
      skipSpace();
      if (text[i] === (object ? '}' : ']')) i++;
      else {
        open.push(object ? 1 : 0);
        if (object && !readKey()) return Math.min(i, n);
        continue;
      }
    } else if (!readScalar()) return Math.min(i, n);
    // After a value: commas and closing brackets until the next value starts, or the end.
    for (;;) {
      skipSpace();
      if (open.length === 0) return i === n ? -1 : i;
      if (i >= n) return n;
      const object = open[open.length - 1] === 1;
      if (text[i] === ',') {
        i++;
        if (object && !readKey()) return Math.min(i, n);
        break;
      }
      if (text[i] !== (object ? '}' : ']')) return i;
      i++;
      open.pop();
    }
  }
}
