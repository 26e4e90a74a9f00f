import { ColliderscopeError } from '../errors';

/**
 * Errors from field programs. Compile errors carry the line and column of the offending token so an
 * editor can underline it; the message says what was expected and how to fix it. A program that throws
 * any of these is never returned, so nothing half-compiled can run.
 */
export class FieldCompileError extends ColliderscopeError {
  readonly line: number;
  readonly column: number;

  constructor(message: string, line: number, column: number, file?: string) {
    super(message, file === undefined ? { line, column } : { file, line, column });
    this.name = 'FieldCompileError';
    this.line = line;
    this.column = column;
  }
}

/** The text is not a sentence of the language: a bad character, a missing `;`, an unbalanced `(`. */
export class FieldSyntaxError extends FieldCompileError {
  constructor(message: string, line: number, column: number, file?: string) {
    super(message, line, column, file);
    this.name = 'FieldSyntaxError';
  }
}

/** Well-formed but meaningless: an unknown name, a wrong argument count, a write to a read-only channel. */
export class FieldSemanticError extends FieldCompileError {
  constructor(message: string, line: number, column: number, file?: string) {
    super(message, line, column, file);
    this.name = 'FieldSemanticError';
  }
}

/** Bytecode that fails validation (a bad opcode, register or patch offset); it is refused, never run. */
export class FieldBytecodeError extends ColliderscopeError {
  readonly wordOffset: number;

  constructor(message: string, wordOffset: number) {
    super(`bytecode word ${wordOffset}: ${message}`);
    this.name = 'FieldBytecodeError';
    this.wordOffset = wordOffset;
  }
}
