import type { KernelBuilder, Scalar } from './jit-scalar';

/** More tests than this in one guard and the guard costs more than it saves: compute unconditionally. */
const MAX_GUARD_TERMS = 4;

/**
 * Lays out the kernel's body from its scalar nodes:
 *  - only nodes the stored wind components need are kept;
 *  - nodes that depend on constants alone run once, before the loop;
 *  - nodes needed only by one branch of a select run under that branch's test (`if (d < r) { … }`),
 *    so an explosion's normalisation is skipped at points outside it. The select evaluates the very
 *    same test on the same values, so it never reads a node that was skipped.
 * `stored[k]` is the value for wind component k, or undefined when the program leaves it unchanged.
 */
export function scheduleKernel(builder: KernelBuilder, stored: readonly (Scalar | undefined)[]): string {
  const nodes = builder.nodes;
  const live = new Uint8Array(nodes.length);
  const stores: string[] = [];
  const pending: number[] = [];
  stored.forEach((value, k) => {
    if (value === undefined) return;
    stores.push(`O[${k === 0 ? 'p' : `p + ${k}`}] = ${value.text};`);
    if (value.node >= 0) pending.push(value.node);
  });
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (live[node] === 1) continue;
    live[node] = 1;
    for (const dependency of nodes[node]!.dependencies) pending.push(dependency);
  }

  // Guards: null = always needed; a set = needed only when one of these tests holds. Users come after
  // their dependencies, so walking backwards finalises each node's guard before passing it on.
  const guards: (Set<string> | null | undefined)[] = new Array(nodes.length);
  /** The nodes each guard test reads, by the test's text. */
  const testNodes = new Map<string, readonly number[]>();
  stored.forEach((value) => {
    if (value !== undefined && value.node >= 0) guards[value.node] = null;
  });
  const require = (node: number, guard: Set<string> | null): void => {
    const current = guards[node];
    if (current === null) return;
    if (guard === null || (current !== undefined && current.size + guard.size > MAX_GUARD_TERMS)) {
      guards[node] = null;
      return;
    }
    guards[node] = current === undefined ? new Set(guard) : new Set([...current, ...guard]);
  };
  for (let index = nodes.length - 1; index >= 0; index--) {
    if (live[index] === 0 || !nodes[index]!.varying) continue;
    let guard = guards[index] ?? null;
    // A guard may only test values computed before this node (hoisted constants always are).
    if (guard !== null && [...guard].some((test) => testNodes.get(test)!.some((node) => node > index && nodes[node]!.varying))) guard = guards[index] = null;
    const node = nodes[index]!;
    const branch = node.branch;
    for (const dependency of node.dependencies) {
      if (!nodes[dependency]!.varying) continue;
      if (guard === null && branch !== undefined && !branch.testNodes.includes(dependency)) {
        const inTrue = dependency === branch.whenTrue;
        const inFalse = dependency === branch.whenFalse;
        if (inTrue !== inFalse) {
          const test = inTrue ? branch.test : `!(${branch.test})`;
          testNodes.set(test, branch.testNodes);
          require(dependency, new Set([test]));
          continue;
        }
      }
      require(dependency, guard);
    }
  }

  const guardText = (index: number): string => {
    const guard = guards[index];
    return guard === null || guard === undefined ? '' : [...guard].join(' || ');
  };
  const order = groupedOrder(builder, live, guardText) ?? [...nodes.keys()].filter((index) => live[index] === 1);

  const hoisted: string[] = [];
  const body: string[] = [];
  const declared: string[] = [];
  let openGuard = '';
  const closeGuard = (): void => {
    if (openGuard !== '') body.push('}');
    openGuard = '';
  };
  for (const index of order) {
    const node = nodes[index]!;
    if (!node.varying) {
      hoisted.push(`const v${index} = ${node.code};`);
      continue;
    }
    const test = guardText(index);
    if (test === '') {
      closeGuard();
      body.push(`const v${index} = ${node.code};`);
      continue;
    }
    if (test !== openGuard) {
      closeGuard();
      body.push(`if (${test}) {`);
      openGuard = test;
    }
    declared.push(`v${index} = 0`);
    body.push(`  v${index} = ${node.code};`);
  }
  closeGuard();
  const constantReads = [...new Set(builder.constantReads)];
  return [
    '"use strict";',
    ...constantReads,
    ...hoisted,
    'for (let p = 0, end = n * 4; p < end; p += 4) {',
    ...(declared.length > 0 ? [`  let ${declared.join(', ')};`] : []),
    ...body.map((line) => '  ' + line),
    ...stores.map((line) => '  ' + line),
    '}',
  ].join('\n');
}

/**
 * Live nodes in an order that gathers each guard's nodes into one block: guarded nodes wait until an
 * unconditional node needs one of them, then every waiting block is written out. Returns undefined if
 * that order would put a node before one it depends on (the caller then keeps program order).
 */
function groupedOrder(builder: KernelBuilder, live: Uint8Array, guardText: (index: number) => string): number[] | undefined {
  const nodes = builder.nodes;
  const order: number[] = [];
  const placed = new Uint8Array(nodes.length);
  const waiting = new Map<string, number[]>();
  const waitingNodes = new Set<number>();
  let valid = true;
  const place = (index: number): void => {
    for (const dependency of nodes[index]!.dependencies) if (nodes[dependency]!.varying && placed[dependency] === 0) valid = false;
    placed[index] = 1;
    order.push(index);
  };
  const flush = (): void => {
    for (const block of waiting.values()) for (const index of block) place(index);
    waiting.clear();
    waitingNodes.clear();
  };
  nodes.forEach((node, index) => {
    if (live[index] === 0) return;
    if (!node.varying) {
      placed[index] = 1;
      order.push(index);
      return;
    }
    const test = guardText(index);
    if (test !== '') {
      const block = waiting.get(test);
      if (block === undefined) waiting.set(test, [index]);
      else block.push(index);
      waitingNodes.add(index);
      return;
    }
    
    place(index);
  });
  flush();
  return valid ? order : undefined;
}
