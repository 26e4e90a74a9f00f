import { KernelBuilder, ZERO, type Scalar } from './jit-scalar';

/**
 * How each operation reads in generated code, component by component. The formulas are spelt exactly
 * as in semantics.ts (same operations, same order), which is what makes the JIT bit-identical to the
 * interpreter; moves and swizzles only rename scalars.
 */
export function expandInstruction(builder: KernelBuilder, operation: string, args: readonly Scalar[][], immediate: number): Scalar[] {
  const a = args[0]!;
  const b = args[1];
  const c = args[2];
  const each = (template: (k: number) => string, operands: readonly Scalar[][]): Scalar[] =>
    [0, 1, 2, 3].map((k) =>
      builder.define(
        template(k),
        operands.map((operand) => operand[k]!),
      ),
    );
  const dotText = (x: readonly Scalar[], y: readonly Scalar[]): string =>
    `${x[0]!.text} * ${y[0]!.text} + ${x[1]!.text} * ${y[1]!.text} + ${x[2]!.text} * ${y[2]!.text} + ${x[3]!.text} * ${y[3]!.text}`;
  const binary = (symbol: string): Scalar[] => each((k) => `${a[k]!.text} ${symbol} ${b![k]!.text}`, [a, b!]);
  const compare = (symbol: string): Scalar[] =>
    [0, 1, 2, 3].map((k) => {
      const test = `${a[k]!.text} ${symbol} ${b![k]!.text}`;
      const args = [a[k]!, b![k]!];
      return builder.define(`${test} ? 1 : 0`, args, undefined, { condition: { code: test, args } });
    });
  const call = (fn: string): Scalar[] => each((k) => `${fn}(${a[k]!.text})`, [a]);
  switch (operation) {
    case 'add':
      return binary('+');
    case 'sub':
      return binary('-');
    case 'mul':
      return binary('*');
    case 'div':
      return binary('/');
    case 'min':
      return each((k) => `Math.min(${a[k]!.text}, ${b![k]!.text})`, [a, b!]);
    case 'max':
      return each((k) => `Math.max(${a[k]!.text}, ${b![k]!.text})`, [a, b!]);
    case 'lt':
      return compare('<');
    case 'le':
      return compare('<=');
    case 'gt':
      return compare('>');
    case 'ge':
      return compare('>=');
    case 'eq':
      return compare('===');
    case 'ne':
      return compare('!==');
    case 'dot': {
      const dot = builder.define(dotText(a, b!), [...a, ...b!]);
      return [dot, dot, dot, dot];
    }
    case 'cross':
      return [
        builder.define(`${a[1]!.text} * ${b![2]!.text} - ${a[2]!.text} * ${b![1]!.text}`, [a[1]!, a[2]!, b![1]!, b![2]!]),
        builder.define(`${a[2]!.text} * ${b![0]!.text} - ${a[0]!.text} * ${b![2]!.text}`, [a[0]!, a[2]!, b![0]!, b![2]!]),
        builder.define(`${a[0]!.text} * ${b![1]!.text} - ${a[1]!.text} * ${b![0]!.text}`, [a[0]!, a[1]!, b![0]!, b![1]!]),
        ZERO,
      ];
    case 'mov':
      return [...a];
    case 'swizzle':
      return [0, 1, 2, 3].map((k) => a[(immediate >> (2 * k)) & 3]!);
    case 'neg':
      return each((k) => `-${a[k]!.text}`, [a]);
    case 'abs':
      return call('Math.abs');
    case 'floor':
      return call('Math.floor');
    case 'sqrt':
      return call('Math.sqrt');
    case 'sin':
      return call('Math.sin');
    case 'cos':
      return call('Math.cos');
    case 'frac':
      return each((k) => `${a[k]!.text} - Math.floor(${a[k]!.text})`, [a]);
    case 'saturate':
      return each((k) => `Math.min(Math.max(${a[k]!.text}, 0), 1)`, [a]);
    case 'length': {
      const length = builder.define(`Math.sqrt(${dotText(a, a)})`, a);
      return [length, length, length, length];
    }
    case 'normalize': {
      const squared = builder.define(dotText(a, a), a);
      const inverse = builder.define(`${squared.text} > 0 ? 1 / Math.sqrt(${squared.text}) : 0`, [squared]);
      return each((k) => `${a[k]!.text} * ${inverse.text}`, [a, [inverse, inverse, inverse, inverse]]);
    }
    case 'noise': {
      const noise = builder.define(`noise(${a[0]!.text}, ${a[1]!.text}, ${a[2]!.text})`, [a[0]!, a[1]!, a[2]!]);
      return [noise, noise, noise, noise];
    }
    case 'lerp':
      return each((k) => `${a[k]!.text} + (${b![k]!.text} - ${a[k]!.text}) * ${c![k]!.text}`, [a, b!, c!]);
    case 'clamp':
      return each((k) => `Math.min(Math.max(${a[k]!.text}, ${b![k]!.text}), ${c![k]!.text})`, [a, b!, c!]);
    case 'select':
      // Branch on the comparison itself when the mask came from one (same outcome, one test fewer).
      return [0, 1, 2, 3].map((k) => {
        const condition = builder.conditionOf(a[k]!);
        if (condition === undefined) return builder.define(`${a[k]!.text} !== 0 ? ${b![k]!.text} : ${c![k]!.text}`, [a[k]!, b![k]!, c![k]!]);
        return builder.define(`${condition.code} ? ${b![k]!.text} : ${c![k]!.text}`, [...condition.args, b![k]!, c![k]!]);
      });
  }
  throw new Error(`the JIT has no expansion for ${operation}`);
}
