import { BUILTINS, closestName } from './builtins';
import { TokenCursor, describeToken } from './cursor';
import { BytecodeEmitter, type Operand } from './emitter';
import { FieldSemanticError } from './errors';
import { compileExpression, type NameScope } from './expression';
import { tokenize, type Token } from './lexer';
import type { OperationName } from './opcodes';
import { MAX_INSTRUCTIONS, createProgram, hashConstantName, type FieldConstant, type FieldProgram } from './program';

export interface CompileOptions {
  /** Named in error messages, e.g. `scenes/fields/whirl.vf`. */
  file?: string;
}

/** The channels evaluateField binds: CHANNEL0 = query positions (read-only), CHANNEL1 = wind. */
const CHANNEL_COUNT = 2;
const KEYWORDS = new Set(['const', 'float4', 'struct', 'void', 'in', 'out', 'return', 'if', 'for', 'while']);
const COMPOUND: ReadonlyMap<string, OperationName> = new Map([
  ['+=', 'add'],
  ['-=', 'sub'],
  ['*=', 'mul'],
  ['/=', 'div'],
]);

interface Member {
  readonly name: string;
  readonly channel: number;
}

/**
 * Compiles field-language source into bytecode. The structure (globals, the two structs, the one entry
 * function) is parsed by recursive descent; each statement's expression goes through the shunting-yard
 * in expression.ts, which emits instructions as it goes. Any error throws a FieldCompileError with line
 * and column, and no program is returned.
 */
export function compileField(source: string, options: CompileOptions = {}): FieldProgram {
  if (typeof source !== 'string') throw new FieldSemanticError(`expected the program's source text, got ${typeof source}`, 1, 1, options.file);
  return new Compiler(tokenize(source, options.file), options.file).compile();
}

class Compiler {
  private readonly cursor: TokenCursor;
  private readonly globals = new Map<string, FieldConstant>();
  private readonly structs = new Map<string, Member[]>();
  private readonly emitter: BytecodeEmitter;

  constructor(
    tokens: readonly Token[],
    private readonly file: string | undefined,
  ) {
    this.cursor = new TokenCursor(tokens, file);
    this.emitter = new BytecodeEmitter(file);
  }

  compile(): FieldProgram {
    const cursor = this.cursor;
    let entry: string | undefined;
    while (cursor.peek().kind !== 'end') {
      const token = cursor.peek();
      if (cursor.isWord('const')) this.parseGlobal();
      else if (cursor.isWord('struct')) this.parseStruct();
      else if (cursor.isWord('void')) {
        if (entry !== undefined) this.semanticError(`a program has one function, and '${entry}' came first; make this a separate program`, token);
        entry = this.parseFunction();
      } else cursor.fail(`expected 'const', 'struct' or 'void' at the top level, found ${describeToken(token)}`, token);
    }
    if (entry === undefined) this.semanticError('no function: add void name(in vf_in in, out vf_out out) { … }', cursor.peek());
    const emitter = this.emitter;
    return createProgram(entry, emitter.words, emitter.registerCount, emitter.instructionCount, emitter.patches, [...this.globals.values()]);
  }

  private semanticError(message: string, at: Token): never {
    throw new FieldSemanticError(message, at.line, at.column, this.file);
  }

  private checkNewName(name: Token): void {
    const text = name.text;
    if (KEYWORDS.has(text) || BUILTINS.has(text)) this.semanticError(`'${text}' is reserved; pick another name`, name);
    if (this.globals.has(text)) this.semanticError(`'${text}' is already a global constant`, name);
  }

  private parseGlobal(): void {
    const cursor = this.cursor;
    cursor.next();
    cursor.expectWord('float4', "after 'const' (every value is a float4)");
    const name = cursor.expectIdentifier("the constant's name");
    this.checkNewName(name);
    cursor.expectPunct('=', `after '${name.text}'`);
    const file = this.file;
    const literalsOnly: NameScope = {
      operand(token: Token): Operand {
        throw new FieldSemanticError(
          `a global's value must be literal numbers, not '${token.text}' (patching one constant never updates another)`,
          token.line,
          token.column,
          file,
        );
      },
      names: () => [],
    };
    const value = compileExpression(cursor, literalsOnly, new BytecodeEmitter(file));
    if (value.kind !== 'constant') this.semanticError(`the value of '${name.text}' is not a constant`, name);
    const hash = hashConstantName(name.text);
    for (const other of this.globals.values()) {
      if (other.hash === hash) this.semanticError(`'${name.text}' and '${other.name}' share a patch hash; rename one`, name);
    }
    this.globals.set(name.text, { name: name.text, hash, value: Float32Array.from(value.value) });
  }

  private parseStruct(): void {
    const cursor = this.cursor;
    cursor.next();
    const name = cursor.expectIdentifier("the struct's name (vf_in or vf_out)");
    if (name.text !== 'vf_in' && name.text !== 'vf_out') this.semanticError(`only the structs vf_in and vf_out exist, not '${name.text}'`, name);
    if (this.structs.has(name.text)) this.semanticError(`struct ${name.text} is declared twice`, name);
    cursor.expectPunct('{', `after struct ${name.text}`);
    const members: Member[] = [];
    while (!cursor.isPunct('}')) {
      cursor.expectWord('float4', `to start a member of ${name.text} (e.g. float4 wind : CHANNEL1;) or '}'`);
      const member = cursor.expectIdentifier("the member's name");
      cursor.expectPunct(':', `and a semantic after '${member.text}', e.g. ${member.text} : CHANNEL1`);
      const semantic = cursor.expectIdentifier('a semantic such as CHANNEL0');
      const match = /^CHANNEL(\d+)$/.exec(semantic.text);
      if (match === null) this.semanticError(`'${semantic.text}' is not a semantic; use CHANNEL0 (position) or CHANNEL1 (wind)`, semantic);
      const channel = Number(match[1]);
      if (channel >= CHANNEL_COUNT)
        this.semanticError(`CHANNEL${channel} is not bound; CHANNEL0 is the query position and CHANNEL1 the wind`, semantic);
      if (name.text === 'vf_out' && channel === 0)
        this.semanticError('CHANNEL0 is the query position, which a field cannot write; output the wind on CHANNEL1', semantic);
      for (const other of members) {
        if (other.name === member.text) this.semanticError(`${name.text} already has a member '${member.text}'`, member);
        if (other.channel === channel) this.semanticError(`'${other.name}' already uses CHANNEL${channel}`, semantic);
      }
      members.push({ name: member.text, channel });
      cursor.expectPunct(';', `after the semantic ${semantic.text}`);
    }
    cursor.next();
    cursor.expectPunct(';', `after the '}' of struct ${name.text}`);
    this.structs.set(name.text, members);
  }

  private parseFunction(): string {
    const cursor = this.cursor;
    cursor.next();
    const name = cursor.expectIdentifier("the function's name");
    cursor.expectPunct('(', `after ${name.text}: void ${name.text}(in vf_in in, out vf_out out)`);
    const inputName = this.parseParameter('in', 'vf_in');
    cursor.expectPunct(',', 'between the parameters');
    const outputName = this.parseParameter('out', 'vf_out');
    if (inputName.text === outputName.text) this.semanticError(`both parameters are called '${inputName.text}'`, outputName);
    cursor.expectPunct(')', 'after the two parameters (in vf_in, out vf_out)');
    cursor.expectPunct('{', `to open the body of ${name.text}`);
    new FunctionBody(this, inputName.text, outputName.text, this.structs.get('vf_in')!, this.structs.get('vf_out')!).compile(name);
    return name.text;
  }

  private parseParameter(direction: 'in' | 'out', type: 'vf_in' | 'vf_out'): Token {
    const cursor = this.cursor;
    cursor.expectWord(direction, `to start the ${direction === 'in' ? 'first' : 'second'} parameter (${direction} ${type} ${direction})`);
    const typeToken = cursor.expectWord(type, `as the type of the ${direction} parameter`);
    if (!this.structs.has(type)) this.semanticError(`declare struct ${type} before the function`, typeToken);
    const name = cursor.expectIdentifier(`the ${direction} parameter's name`);
    if (this.globals.has(name.text) || BUILTINS.has(name.text)) this.semanticError(`'${name.text}' is taken; name the parameter ${direction}`, name);
    return name;
  }

  get tokens(): TokenCursor {
    return this.cursor;
  }

  get code(): BytecodeEmitter {
    return this.emitter;
  }

  constant(name: string): FieldConstant | undefined {
    return this.globals.get(name);
  }

  globalNames(): Iterable<string> {
    return this.globals.keys();
  }

  fail(message: string, at: Token): never {
    return this.semanticError(message, at);
  }

  checkLocalName(name: Token): void {
    this.checkNewName(name);
  }
}

/** The entry function's statements: locals, assignments to locals and to the output channels. */
class FunctionBody implements NameScope {
  private readonly locals = new Map<string, number>();
  private readonly writtenChannels = new Set<number>();

  constructor(
    private readonly compiler: Compiler,
    private readonly inputName: string,
    private readonly outputName: string,
    private readonly inputs: readonly Member[],
    private readonly outputs: readonly Member[],
  ) {}

  compile(functionName: Token): void {
    const cursor = this.compiler.tokens;
    const emitter = this.compiler.code;
    if (this.outputs.length === 0) this.compiler.fail('vf_out declares no channel; add float4 wind : CHANNEL1;', functionName);
    let statement: Token | undefined;
    while (!cursor.isPunct('}')) {
      if (statement !== undefined) this.checkLength(statement);
      const first = cursor.peek();
      statement = first;
      if (first.kind === 'end') cursor.fail(`the body of ${functionName.text} is never closed; add '}'`, first);
      if (cursor.isWord('float4')) {
        cursor.next();
        const name = cursor.expectIdentifier("the local's name");
        this.compiler.checkLocalName(name);
        if (this.locals.has(name.text)) this.compiler.fail(`'${name.text}' is already declared; assign with ${name.text} = … instead`, name);
        if (name.text === this.inputName || name.text === this.outputName) this.compiler.fail(`'${name.text}' names a parameter`, name);
        cursor.expectPunct('=', `after float4 ${name.text} (locals start with a value)`);
        const register = emitter.allocate(name);
        emitter.assign(register, compileExpression(cursor, this, emitter));
        // Declared after its initialiser, so `float4 r = r + 1;` is an unknown-name error.
        this.locals.set(name.text, register);
        continue;
      }
      const target = cursor.expectIdentifier('a statement (float4 name = …; or name = …;)');
      let register: number;
      let channel = -1;
      if (target.text === this.outputName || target.text === this.inputName) {
        cursor.expectPunct('.', `after '${target.text}' to name a member`);
        const member = cursor.expectIdentifier('a member name');
        if (target.text === this.inputName) {
          this.compiler.fail(`${target.text}.${member.text} is read-only; write ${this.outputName}.${member.text} instead`, target);
        }
        channel = this.member(this.outputs, member, 'vf_out').channel;
        register = channel;
      } else {
        const local = this.locals.get(target.text);
        if (local === undefined) this.unknown(target);
        register = local;
      }
      const assignment = cursor.next();
      const compound = assignment.kind === 'punct' ? COMPOUND.get(assignment.text) : undefined;
      if (compound !== undefined) {
        emitter.update(compound, register, compileExpression(cursor, this, emitter));
      } else if (assignment.kind === 'punct' && assignment.text === '=') {
        emitter.assign(register, compileExpression(cursor, this, emitter));
      } else {
        cursor.fail(`expected '=', '+=', '-=', '*=' or '/=' after '${target.text}', found ${describeToken(assignment)}`, assignment);
      }
      if (channel >= 0) this.writtenChannels.add(channel);
    }
    if (statement !== undefined) this.checkLength(statement);
    cursor.next();
    for (const output of this.outputs) {
      if (!this.writtenChannels.has(output.channel)) {
        this.compiler.fail(
          `${this.outputName}.${output.name} is never written; add e.g. ${this.outputName}.${output.name} = ${this.inputName}.${output.name} + …;`,
          functionName,
        );
      }
    }
  }

  /** Refuses a program grown past MAX_INSTRUCTIONS, at the statement that crossed the limit. */
  private checkLength(statement: Token): void {
    const count = this.compiler.code.instructionCount;
    if (count > MAX_INSTRUCTIONS) {
      this.compiler.fail(
        `the program reaches ${count} instructions here, more than the ${MAX_INSTRUCTIONS} a field may have; simplify it`,
        statement,
      );
    }
  }

  operand(name: Token, cursor: TokenCursor): Operand {
    if (name.text === this.inputName) {
      cursor.expectPunct('.', `after '${name.text}' to name a member, e.g. ${name.text}.position`);
      const member = this.member(this.inputs, cursor.expectIdentifier('a member name'), 'vf_in');
      if (this.writtenChannels.has(member.channel)) {
        this.compiler.fail(
          `${name.text}.${member.name} shares CHANNEL${member.channel} with an output written above, so it no longer holds the input; copy it into a local first`,
          name,
        );
      }
      return { kind: 'register', register: member.channel, temporary: false };
    }
    if (name.text === this.outputName) {
      this.compiler.fail(`${name.text} is write-only; read ${this.inputName}.… or keep the value in a local`, name);
    }
    const local = this.locals.get(name.text);
    if (local !== undefined) return { kind: 'register', register: local, temporary: false };
    const constant = this.compiler.constant(name.text);
    if (constant !== undefined) return { kind: 'constant', value: Float64Array.from(constant.value), global: constant.name };
    if (BUILTINS.has(name.text) || name.text === 'float4')
      this.compiler.fail(`'${name.text}' is a function; call it, e.g. ${BUILTINS.get(name.text)?.signature ?? 'float4(x, y, z, w)'}`, name);
    return this.unknown(name);
  }

  names(): Iterable<string> {
    return [...this.locals.keys(), ...this.compiler.globalNames(), this.inputName];
  }

  private member(members: readonly Member[], token: Token, struct: string): Member {
    const found = members.find((member) => member.name === token.text);
    if (found === undefined) {
      const hint = closestName(
        token.text,
        members.map((member) => member.name),
      );
      this.compiler.fail(
        `${struct} has no member '${token.text}'${hint === undefined ? '' : `; did you mean '${hint}'?`} (members: ${members.map((m) => m.name).join(', ') || 'none'})`,
        token,
      );
    }
    return found;
  }

  private unknown(name: Token): never {
    const hint = closestName(name.text, this.names());
    return this.compiler.fail(
      `unknown name '${name.text}'${hint === undefined ? '; declare it with float4 ' + name.text + ' = …;' : `; did you mean '${hint}'?`}`,
      name,
    );
  }
}
