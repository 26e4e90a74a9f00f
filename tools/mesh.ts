/**
 * Loads a mesh file as the collision geometry the sandbox would use, builds its BVH and casts rays
 * through it: a quick look at a level, a scan or a CAD part before a scene names it.
 *
 *   npm run mesh -- FILE.(obj|stl|gltf|glb) [--rays N] [--check N] [--seed N] [--builder wasm|typescript]
 *
 * Prints the triangles, bounds and repairs, the BVH's build time, SAH cost and bytes per triangle, and
 * the rays' rate through the SIMD kernel (TypeScript where it does not load), a sample checked against
 * brute force. Exits 2 with the parser's located message on a bad file, 1 when a checked ray disagrees.
 */
import { ColliderscopeError, loadSimdRays, loadWasmBuilder, type BVHBuilderName } from '../src/core';
import { inspectMesh } from './meshReport';
import { loadMeshFile } from './sceneFiles';

const USAGE = 'usage: npm run mesh -- <file.obj|.stl|.gltf|.glb> [--rays N] [--check N] [--seed N] [--builder wasm|typescript]';

interface MeshToolOptions {
  file: string;
  rays: number;
  check: number;
  seed: number;
  builder: BVHBuilderName;
}

function parseArguments(argv: string[]): MeshToolOptions {
  let file: string | undefined;
  const options = { rays: 100_000, check: 500, seed: 1, builder: 'wasm' as BVHBuilderName };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i]!;
    const count = (min: number): number => {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < min) throw new ColliderscopeError(`${argument} needs a whole number ≥ ${min}\n${USAGE}`);
      return value;
    };
    if (argument === '--rays') options.rays = count(1);
    else if (argument === '--check') options.check = count(0);
    else if (argument === '--seed') options.seed = count(0);
    else if (argument === '--builder') {
      const builder = argv[++i];
      if (builder !== 'wasm' && builder !== 'typescript') throw new ColliderscopeError(`--builder is wasm or typescript\n${USAGE}`);
      options.builder = builder;
    } else if (argument === '--help' || argument === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (argument.startsWith('--')) throw new ColliderscopeError(`unknown option ${argument}\n${USAGE}`);
    else if (file === undefined) file = argument;
    else throw new ColliderscopeError(`one file at a time (got ${file} and ${argument})\n${USAGE}`);
  }
  if (file === undefined) throw new ColliderscopeError(`no mesh file given\n${USAGE}`);
  return { file, ...options };
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);

try {
  const options = parseArguments(process.argv.slice(2));
  await Promise.all([loadSimdRays(), loadWasmBuilder()]);
  const mesh = loadMeshFile(options.file);
  const b = mesh.bounds;
  console.log(`${options.file} (${mesh.format}): ${mesh.triangleCount} triangles, ${mesh.vertexCount} vertices`);
  console.log(
    `bounds  min ${[b[0]!, b[1]!, b[2]!].map((x) => fixed(x, 4)).join(' ')}  max ${[b[3]!, b[4]!, b[5]!].map((x) => fixed(x, 4)).join(' ')}`,
  );
  for (const note of mesh.notes) console.log(`repair  ${note}`);
  const report = inspectMesh(mesh, options);
  const s = report.bvh.stats;
  console.log(
    `bvh     ${s.builder} builder, ${fixed(s.buildMs, 1)} ms, SAH cost ${fixed(s.sahCost, 2)}, ${s.nodes} nodes, depth ${s.depthMin}–${s.depthMax}, ` +
      `${fixed(s.bytesPerTriangle, 1)} bytes per triangle`,
  );
  const rate = options.rays / report.castMs / 1000;
  console.log(
    `rays    ${options.rays} incoherent (seed ${options.seed}), ${report.kernel}${report.fallbackReason !== undefined ? ` (not SIMD: ${report.fallbackReason})` : ''}: ` +
      `${fixed(report.castMs, 1)} ms, ${fixed(rate, 2)} Mrays/s, ${fixed((100 * report.hits) / options.rays, 1)}% hit`,
  );
  console.log(
    `check   ${report.checked} rays against brute force: ${report.mismatches === 0 ? 'all agree' : `${report.mismatches} DISAGREE`}` +
      (report.ties > 0 ? ` (${report.ties} ties: another triangle at the same t)` : ''),
  );
  if (report.firstMismatch !== undefined) {
    console.error(`error: ${report.firstMismatch}`);
    process.exit(1);
  }
} catch (error) {
  if (error instanceof ColliderscopeError) {
    console.error(`error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
