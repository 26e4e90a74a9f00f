/**
 * Runs every benchmark script in tests/bench one after another (never in parallel: they would share
 * the two cores and skew each other). Arguments pass through, so `npm run bench -- --quick` is a smoke run.
 *
 *   npm run bench                 # full runs, each prints its own table with ratios
 *   npm run bench -- --quick      # seconds each
 *   npm run bench -- --only field # one benchmark by name
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args.splice(onlyIndex, 2)[1] : undefined;

/** A benchmark is a top-level .ts script here; helpers shared by several start with an underscore. */
function benchmarkScripts(): string[] {
  return readdirSync(here)
    .filter((name) => name.endsWith('.ts') && name !== 'run-all.ts' && !name.startsWith('_'))
    .sort();
}

const tsx = join(here, '../../node_modules/.bin/tsx');
let failures = 0;
for (const script of benchmarkScripts()) {
  if (only !== undefined && !script.startsWith(only)) continue;
  console.log(`\n=== ${script} ${args.join(' ')}`);
  const result = spawnSync(tsx, [join(here, script), ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    failures++;
    console.error(`${script} exited with ${result.status ?? result.signal}`);
  }
}
process.exit(failures === 0 ? 0 : 1);
