import { buildBVH } from '../../src/bvh/index';
import { Random } from '../../src/math/random';
import { RayPool } from '../../src/query/rays/rayPool';
import { generateTerrain } from '../../src/terrain/index';
import { incoherentRays } from './_raySets';
const cells = Number(process.argv[2] ?? 512);
const mesh = generateTerrain({ cells, seed: 1 });
const bvh = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
const rays = incoherentRays(mesh, 100000, new Random(3));
const hits = { t: new Float32Array(100000), triangle: new Int32Array(100000) };
const pool = await RayPool.create({ workers: 0 });
console.log('created');
await pool.cast(bvh, rays, hits);
console.log('cast with 0');
await pool.setWorkers(1);
console.log('resized');
for (let i = 0; i < 5; i++) { const r = await pool.cast(bvh, rays, hits); console.log('cast', i, r.chunksOnCaller, r.chunks); }
await pool.close();
console.log('closed');
