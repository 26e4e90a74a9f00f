/**
 * Runs the benchmarks of tests/bench one after another (never in parallel: they would share the cores
 * and skew each other). Other arguments pass through, so `npm run bench -- --quick` is a smoke run.
 *
 *   npm run bench                      every benchmark, full runs
 *   npm run bench -- --quick           every benchmark as a smoke run (seconds to a minute each)
 *   npm run bench -- simd-rays         one benchmark by name (also: --only simd-rays)
 *   npm run bench -- simd-rays --quick
 * Each prints its table and writes bench-results/NAME.json (NAME.quick.json for smoke runs).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

/** A benchmark is a top-level .ts script here; helpers shared by several start with an underscore. */
const names = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run-all.ts' && !file.startsWith('_') && !file.endsWith('.d.ts'))
  .map((file) => file.slice(0, -3))
  .sort();

const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const chosen = onlyIndex >= 0 ? args.splice(onlyIndex, 2)[1] : undefined;
// A leading argument that is not an option names the benchmark.
const named = chosen ?? (args[0] !== undefined && !args[0].startsWith('-') ? args.shift() : undefined);
if (named !== undefined && !names.includes(named)) {
  console.error(`no benchmark named '${named}'; the benchmarks are:\n  ${names.join('\n  ')}`);
  process.exit(2);
}

const tsx = join(here, '../../node_modules/.bin/tsx');
const failed: string[] = [];
for (const name of named === undefined ? names : [named]) {
  console.log(`\n=== ${name} ${args.join(' ')}`);
  const result = spawnSync(tsx, [join(here, `${name}.ts`), ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed.push(name);
    console.error(`${name} exited with ${result.status ?? result.signal}`);
  }
}
if (named === undefined) console.log(failed.length === 0 ? `\nall ${names.length} benchmarks ran` : `\nfailed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
