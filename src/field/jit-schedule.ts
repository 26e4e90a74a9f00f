import type { KernelBuilder, Scalar } from './jit-scalar';

/**
 * Lays out the kernel's body from its scalar nodes: only nodes the stored wind components need are
 * kept, and nodes that depend on constants alone run once, before the loop.
 *
 * Tried and dropped: running a select's branch-only nodes under the select's test (`if (d < r) { … }`,
 * so an explosion skips its normalisation outside its radius). Results were identical but the kernel
 * got about 5% slower for whirl + explosion on V8: the extra branches cost more than the skipped
 * square root saved once the engine overlaps independent points.
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

  const hoisted: string[] = [];
  const body: string[] = [];
  nodes.forEach((node, index) => {
    if (live[index] === 0) return;
    (node.varying ? body : hoisted).push(`const v${index} = ${node.code};`);
  });
  return [
    '"use strict";',
    ...new Set(builder.constantReads),
    ...hoisted,
    'for (let p = 0, end = n * 4; p < end; p += 4) {',
    ...body.map((line) => '  ' + line),
    ...stores.map((line) => '  ' + line),
    '}',
  ].join('\n');
}
