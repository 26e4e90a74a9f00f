/**
 * The JIT's intermediate form: scalar expressions in single-assignment form. Each bytecode
 * instruction expands into up to four of them (one per component); identical expressions are shared.
 */
export interface ScalarNode {
  readonly code: string;
  readonly dependencies: readonly number[];
  /** False when it depends on constants only, so it can run once before the loop. */
  readonly varying: boolean;
  /** For a comparison `x < y ? 1 : 0`: the test `x < y` and its operands, so select can branch on it directly. */
  readonly condition?: { readonly code: string; readonly args: readonly Scalar[] };
}

/** A value in generated code: a node's variable, or text that needs no evaluation (a literal, a constant). */
export interface Scalar {
  readonly text: string;
  /** Index of the node that defines it, or -1. */
  readonly node: number;
  readonly varying: boolean;
}

export const ZERO: Scalar = { text: '0', node: -1, varying: false };

export function literalText(value: number): string {
  if (Object.is(value, -0)) return '(-0)';
  const text = String(value);
  return value < 0 ? `(${text})` : text;
}

export class KernelBuilder {
  readonly nodes: ScalarNode[] = [];
  readonly constantReads: string[] = [];

  /** Same code, same value: identical expressions are computed once (exact, unlike algebraic rewrites). */
  private readonly byCode = new Map<string, Scalar>();

  define(code: string, args: readonly Scalar[], varying?: boolean, extra: Pick<ScalarNode, 'condition'> = {}): Scalar {
    const known = this.byCode.get(code);
    if (known !== undefined) return known;
    const dependencies = args.filter((arg) => arg.node >= 0).map((arg) => arg.node);
    const isVarying = varying ?? args.some((arg) => arg.varying);
    this.nodes.push({ code, dependencies, varying: isVarying, ...extra });
    const node = this.nodes.length - 1;
    const scalar = { text: `v${node}`, node, varying: isVarying };
    this.byCode.set(code, scalar);
    return scalar;
  }

  conditionOf(scalar: Scalar): ScalarNode['condition'] {
    return scalar.node >= 0 ? this.nodes[scalar.node]!.condition : undefined;
  }
}
