/**
 * Prints the core's layer graph, bottom layer first: each layer and the layers it imports, with how many
 * imports go there; then the upward imports allowed for now, what breaks the layer order and every
 * import circle. Exits with 1 when anything does, like the layering test that shares its checks.
 *
 *   npx tsx tools/import-graph.ts
 */
import { fileURLToPath } from 'node:url';
import {
  ALLOWED_IMPORTS,
  CORE_LAYERS,
  importCircles,
  importGraphOf,
  layerGraph,
  layerViolations,
  readCoreSources,
  unusedAllowances,
} from './layering';

const graph = importGraphOf(readCoreSources(fileURLToPath(new URL('..', import.meta.url))));
const counts = layerGraph(graph);
const listed = CORE_LAYERS.flat();
const order = [...listed, ...[...counts.keys()].filter((layer) => !listed.includes(layer)).sort()];
for (const layer of order) {
  const row = counts.get(layer);
  if (row === undefined) continue;
  const targets = [...row].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([to, count]) => `${to} ${count}`);
  console.log(`${layer.padEnd(12)} → ${targets.length === 0 ? '(nothing)' : targets.join(', ')}`);
}

const allowed = ALLOWED_IMPORTS.filter((entry) => !unusedAllowances(graph).includes(entry));
if (allowed.length > 0)
  console.log(`\nallowed upward imports:\n${allowed.map((entry) => `  ${entry.from} → ${entry.layer} (${entry.reason})`).join('\n')}`);

const problems = [
  ...layerViolations(graph),
  ...unusedAllowances(graph).map((entry) => `${entry.from} → ${entry.layer}: allowed but no longer imported (${entry.reason})`),
  ...importCircles(graph).map((circle) => `import circle of ${circle.files.length} files: ${circle.path.join(' → ')}`),
];
console.log(problems.length === 0 ? '\nno forbidden import, no import circle' : `\n${problems.join('\n')}`);
process.exitCode = problems.length === 0 ? 0 : 1;
