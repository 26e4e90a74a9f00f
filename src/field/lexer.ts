import { FieldSyntaxError } from './errors';

/** Token kinds. Keywords are identifiers the parser recognises by text, so `in` can also name a parameter. */
export type TokenKind = 'identifier' | 'number' | 'punct' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The source text; for `end`, the empty string. */
  readonly text: string;
  /** Value of a number token. */
  readonly value: number;
  /** 1-based position of the first character. */
  readonly line: number;
  readonly column: number;
}

/** Longest match first, so `<=` wins over `<`. */
const PUNCTUATION = ['<=', '>=', '==', '!=', '+=', '-=', '*=', '/=', '(', ')', '{', '}', ',', ';', ':', '.', '=', '+', '-', '*', '/', '<', '>'];

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Splits source text into tokens. Numbers follow C: `12`, `1.5`, `.5`, `2e-3`; an `f` suffix is
 * accepted for HLSL habit. Comments are `//` to end of line and `/* … *\/`.
 */
export function tokenize(source: string, file?: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let line = 1;
  let lineStart = 0;
  const length = source.length;

  const fail = (message: string, at: number, atLine = line, atLineStart = lineStart): never => {
    throw new FieldSyntaxError(message, atLine, at - atLineStart + 1, file);
  };

  while (index < length) {
    const code = source.charCodeAt(index);
    if (code === 10) {
      index++;
      line++;
      lineStart = index;
      continue;
    }
    if (code === 32 || code === 9 || code === 13) {
      index++;
      continue;
    }
    if (code === 47 && source.charCodeAt(index + 1) === 47) {
      while (index < length && source.charCodeAt(index) !== 10) index++;
      continue;
    }
    if (code === 47 && source.charCodeAt(index + 1) === 42) {
      const openLine = line;
      const openLineStart = lineStart;
      const open = index;
      index += 2;
      while (index < length && !(source.charCodeAt(index) === 42 && source.charCodeAt(index + 1) === 47)) {
        if (source.charCodeAt(index) === 10) {
          line++;
          lineStart = index + 1;
        }
        index++;
      }
      if (index >= length) fail('this /* comment is never closed; add */', open, openLine, openLineStart);
      index += 2;
      continue;
    }

    const column = index - lineStart + 1;
    if (isIdentifierStart(code)) {
      const start = index;
      while (index < length && (isIdentifierStart(source.charCodeAt(index)) || isDigit(source.charCodeAt(index)))) index++;
      tokens.push({ kind: 'identifier', text: source.slice(start, index), value: 0, line, column });
      continue;
    }
    if (isDigit(code) || (code === 46 && isDigit(source.charCodeAt(index + 1)))) {
      const start = index;
      while (isDigit(source.charCodeAt(index))) index++;
      if (source.charCodeAt(index) === 46) {
        index++;
        while (isDigit(source.charCodeAt(index))) index++;
      }
      const e = source.charCodeAt(index);
      if (e === 101 || e === 69) {
        index++;
        const sign = source.charCodeAt(index);
        if (sign === 43 || sign === 45) index++;
        if (!isDigit(source.charCodeAt(index))) fail(`the exponent of '${source.slice(start, index)}' needs digits, e.g. 1e-3`, start);
        while (isDigit(source.charCodeAt(index))) index++;
      }
      const text = source.slice(start, index);
      if (source.charCodeAt(index) === 102) index++; // HLSL's `1.0f`
      if (index < length && (isIdentifierStart(source.charCodeAt(index)) || isDigit(source.charCodeAt(index)))) {
        fail(`'${source.slice(start, index + 1)}' is not a number; separate the number from the name after it`, start);
      }
      tokens.push({ kind: 'number', text, value: Number(text), line, column });
      continue;
    }
    let matched: string | undefined;
    for (const p of PUNCTUATION) {
      if (source.startsWith(p, index)) {
        matched = p;
        break;
      }
    }
    if (matched === undefined) {
      const shown = source[index] ?? '';
      const hint =
        shown === '!' ? ' (there is no !; compare with == or != instead)' : shown === '[' ? ' (there is no indexing; use a swizzle such as .x)' : '';
      fail(`unexpected character '${shown}'${hint}`, index);
    } else {
      tokens.push({ kind: 'punct', text: matched, value: 0, line, column });
      index += matched.length;
    }
  }
  tokens.push({ kind: 'end', text: '', value: 0, line, column: index - lineStart + 1 });
  return tokens;
}
