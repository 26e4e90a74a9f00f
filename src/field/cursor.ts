import { FieldSyntaxError } from './errors';
import type { Token } from './lexer';

/** A read position in a token list, with the expectation helpers the parsers share. */
export class TokenCursor {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    readonly file: string | undefined,
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  isPunct(text: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'punct' && token.text === text;
  }

  isWord(text: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'identifier' && token.text === text;
  }

  expectPunct(text: string, what: string): Token {
    if (!this.isPunct(text)) this.fail(`expected '${text}' ${what}, found ${describeToken(this.peek())}`, this.peek());
    return this.next();
  }

  expectWord(text: string, what: string): Token {
    if (!this.isWord(text)) this.fail(`expected '${text}' ${what}, found ${describeToken(this.peek())}`, this.peek());
    return this.next();
  }

  expectIdentifier(what: string): Token {
    const token = this.peek();
    if (token.kind !== 'identifier') this.fail(`expected ${what}, found ${describeToken(token)}`, token);
    return this.next();
  }

  fail(message: string, at: Token): never {
    throw new FieldSyntaxError(message, at.line, at.column, this.file);
  }
}

export function describeToken(token: Token): string {
  if (token.kind === 'end') return 'the end of the program';
  return `'${token.text}'`;
}
