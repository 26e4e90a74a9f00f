import { BUILTINS, closestName } from './builtins';
import { TokenCursor, describeToken } from './cursor';
import type { BytecodeEmitter, Operand } from './emitter';
import { literal } from './emitter';
import { FieldSemanticError, FieldSyntaxError } from './errors';
import type { Token } from './lexer';
import type { OperationName } from './opcodes';

/** Turns a name (and, for `in.x` / `out.x`, the member after it) into an operand, or throws. */
export interface NameScope {
  operand(name: Token, cursor: TokenCursor): Operand;
  /** Names in scope, for "did you mean" hints. */
  names(): Iterable<string>;
}

const BINARY_OPERATORS: ReadonlyMap<string, { operation: OperationName; precedence: number }> = new Map([
  ['<', { operation: 'lt', precedence: 1 }],
  ['<=', { operation: 'le', precedence: 1 }],
  ['>', { operation: 'gt', precedence: 1 }],
  ['>=', { operation: 'ge', precedence: 1 }],
  ['==', { operation: 'eq', precedence: 1 }],
  ['!=', { operation: 'ne', precedence: 1 }],
  ['+', { operation: 'add', precedence: 2 }],
  ['-', { operation: 'sub', precedence: 2 }],
  ['*', { operation: 'mul', precedence: 3 }],
  ['/', { operation: 'div', precedence: 3 }],
]);
const COMPARISON_PRECEDENCE = 1;
const NEGATE_PRECEDENCE = 4;

type Pending =
  | { readonly kind: 'binary'; readonly operation: OperationName; readonly precedence: number; readonly token: Token }
  | { readonly kind: 'negate'; readonly token: Token }
  | { readonly kind: 'paren'; readonly token: Token }
  | { kind: 'call'; readonly token: Token; argumentCount: number };

const SWIZZLE_LETTERS = 'xyzw';
const COLOUR_LETTERS = 'rgba';

/**
 * Dijkstra's shunting-yard over one expression, ending at (and consuming) `;`. Bytecode is emitted as
 * operators pop: each pop applies its operation to the top of the value stack and pushes the
 * result (a temporary register, or a folded literal). Returns the expression's value; the caller stores it.
 */
export function compileExpression(cursor: TokenCursor, scope: NameScope, emitter: BytecodeEmitter): Operand {
  const values: Operand[] = [];
  const pending: Pending[] = [];
  let expectOperand = true;
  const file = cursor.file;

  const pop = (): void => {
    const top = pending.pop()!;
    if (top.kind === 'negate') {
      const value = values.pop()!;
      values.push(emitter.apply('neg', [value], 0, top.token));
    } else if (top.kind === 'binary') {
      const right = values.pop()!;
      const left = values.pop()!;
      values.push(emitter.apply(top.operation, [left, right], 0, top.token));
    }
  };

  const finishCall = (call: Extract<Pending, { kind: 'call' }>, closing: Token): void => {
    const args = values.splice(values.length - call.argumentCount, call.argumentCount);
    const name = call.token.text;
    if (name === 'float4') {
      values.push(constructVector(args, call.token, closing, file));
      return;
    }
    const builtin = BUILTINS.get(name)!;
    if (args.length !== builtin.arity) {
      throw new FieldSemanticError(
        `${name} takes ${builtin.arity} argument${builtin.arity === 1 ? '' : 's'}, ${builtin.signature}, but was given ${args.length}`,
        call.token.line,
        call.token.column,
        file,
      );
    }
    values.push(emitter.apply(builtin.operation, args, 0, call.token));
  };

  for (;;) {
    const token = cursor.next();
    if (expectOperand) {
      if (token.kind === 'number') {
        if (!Number.isFinite(Math.fround(token.value))) {
          throw new FieldSemanticError(`${token.text} is out of float range (about ±3.4e38)`, token.line, token.column, file);
        }
        values.push(literal(token.value, token.value, token.value, token.value));
        expectOperand = false;
      } else if (token.kind === 'identifier' && cursor.isPunct('(')) {
        if (token.text !== 'float4' && !BUILTINS.has(token.text)) {
          const hint = closestName(token.text, ['float4', ...BUILTINS.keys()]);
          throw new FieldSemanticError(
            `there is no function '${token.text}'${hint === undefined ? '' : `; did you mean '${hint}'?`} (built-ins: ${[...BUILTINS.keys()].join(', ')})`,
            token.line,
            token.column,
            file,
          );
        }
        cursor.next();
        if (cursor.isPunct(')')) cursor.fail(`${token.text}() needs arguments`, cursor.peek());
        pending.push({ kind: 'call', token, argumentCount: 1 });
      } else if (token.kind === 'identifier') {
        values.push(scope.operand(token, cursor));
        expectOperand = false;
      } else if (token.kind === 'punct' && token.text === '(') {
        pending.push({ kind: 'paren', token });
      } else if (token.kind === 'punct' && token.text === '-') {
        pending.push({ kind: 'negate', token });
      } else {
        const why = token.kind === 'punct' && token.text === '+' ? ' (there is no unary +; drop it)' : '';
        throw new FieldSyntaxError(
          `expected a value (a number, a name, a call or '('), found ${describeToken(token)}${why}`,
          token.line,
          token.column,
          file,
        );
      }
      continue;
    }

    // Operator position.
    if (token.kind === 'punct' && token.text === '.') {
      const letters = cursor.expectIdentifier("swizzle letters after '.', e.g. .x or .zyxw");
      values.push(emitter.apply('swizzle', [values.pop()!], swizzlePattern(letters, file), letters));
      continue;
    }
    const binary = token.kind === 'punct' ? BINARY_OPERATORS.get(token.text) : undefined;
    if (binary !== undefined) {
      for (;;) {
        const top = pending[pending.length - 1];
        if (top === undefined || top.kind === 'paren' || top.kind === 'call') break;
        const topPrecedence = top.kind === 'negate' ? NEGATE_PRECEDENCE : top.precedence;
        if (topPrecedence === COMPARISON_PRECEDENCE && binary.precedence === COMPARISON_PRECEDENCE) {
          throw new FieldSemanticError(
            `comparisons do not chain: '${top.token.text}' and '${token.text}'; combine masks with * (and) instead`,
            token.line,
            token.column,
            file,
          );
        }
        if (topPrecedence < binary.precedence) break;
        pop();
      }
      pending.push({ kind: 'binary', operation: binary.operation, precedence: binary.precedence, token });
      expectOperand = true;
      continue;
    }
    if (token.kind === 'punct' && (token.text === ',' || token.text === ')')) {
      while (pending.length > 0 && pending[pending.length - 1]!.kind !== 'paren' && pending[pending.length - 1]!.kind !== 'call') pop();
      const open = pending[pending.length - 1];
      if (open === undefined) {
        throw new FieldSyntaxError(
          token.text === ',' ? "',' outside a function call" : "this ')' has no matching '('",
          token.line,
          token.column,
          file,
        );
      }
      if (token.text === ',') {
        if (open.kind !== 'call')
          throw new FieldSyntaxError("',' inside parentheses; a comma only separates function arguments", token.line, token.column, file);
        open.argumentCount++;
        expectOperand = true;
        continue;
      }
      pending.pop();
      if (open.kind === 'call') finishCall(open, token);
      continue;
    }
    if (token.kind === 'punct' && token.text === ';') {
      while (pending.length > 0) {
        const top = pending[pending.length - 1]!;
        if (top.kind === 'paren' || top.kind === 'call') {
          throw new FieldSyntaxError(
            `the '(' ${top.kind === 'call' ? `of ${top.token.text}(` : ''}opened here is never closed; add ')'`,
            top.token.line,
            top.token.column + (top.kind === 'call' ? top.token.text.length : 0),
            file,
          );
        }
        pop();
      }
      return values.pop()!;
    }
    throw new FieldSyntaxError(`expected an operator or ';' before ${describeToken(token)}`, token.line, token.column, file);
  }
}

function swizzlePattern(letters: Token, file: string | undefined): number {
  const text = letters.text;
  const alphabet = SWIZZLE_LETTERS.includes(text[0]!) ? SWIZZLE_LETTERS : COLOUR_LETTERS;
  const fail = (why: string): never => {
    throw new FieldSemanticError(`'.${text}' is not a swizzle: ${why}`, letters.line, letters.column, file);
  };
  if (text.length !== 1 && text.length !== 4) fail('every value is a float4, so use one letter (.x, broadcast) or four (.zyxw)');
  let pattern = 0;
  for (let k = 0; k < 4; k++) {
    const component = alphabet.indexOf(text[text.length === 1 ? 0 : k]!);
    if (component < 0) fail('use the letters x, y, z, w (or r, g, b, a), not mixed');
    pattern |= component << (2 * k);
  }
  return pattern;
}

function constructVector(args: readonly Operand[], call: Token, closing: Token, file: string | undefined): Operand {
  if (args.length !== 1 && args.length !== 4) {
    throw new FieldSemanticError(`float4 takes 1 or 4 numbers, float4(x, y, z, w), but was given ${args.length}`, closing.line, closing.column, file);
  }
  const components: number[] = [];
  for (const arg of args) {
    if (arg.kind !== 'constant' || arg.global !== undefined) {
      throw new FieldSemanticError(
        'float4(...) takes literal numbers; to build a vector from values, add scaled axes, e.g. a.x * float4(1,0,0,0) + b.x * float4(0,1,0,0)',
        call.line,
        call.column,
        file,
      );
    }
    components.push(arg.value[0]!);
  }
  return args.length === 1 ? args[0]! : literal(components[0]!, components[1]!, components[2]!, components[3]!);
}
