import type { FunctionBuilder } from './wasmEmitter';
import { SimdOp } from './wasmOpcodes';

/**
 * 4×4 float32 transposes between array-of-structures (one v128 per point: x y z w) and structure of
 * arrays (one v128 per component: x of four points…), in eight lane shuffles. The same shuffles go
 * either way: transposing twice gives the input back.
 */
export function emitTranspose4(f: FunctionBuilder, rows: readonly number[], columns: readonly number[], temporaries: readonly number[]): void {
  const [r0, r1, r2, r3] = rows as [number, number, number, number];
  const [t0, t1, t2, t3] = temporaries as [number, number, number, number];
  f.localGet(r0).localGet(r1).shuffle32(0, 4, 1, 5).localSet(t0); // x0 x1 y0 y1
  f.localGet(r2).localGet(r3).shuffle32(0, 4, 1, 5).localSet(t1); // x2 x3 y2 y3
  f.localGet(r0).localGet(r1).shuffle32(2, 6, 3, 7).localSet(t2); // z0 z1 w0 w1
  f.localGet(r2).localGet(r3).shuffle32(2, 6, 3, 7).localSet(t3); // z2 z3 w2 w3
  f.localGet(t0).localGet(t1).shuffle32(0, 1, 4, 5).localSet(columns[0]!);
  f.localGet(t0).localGet(t1).shuffle32(2, 3, 6, 7).localSet(columns[1]!);
  f.localGet(t2).localGet(t3).shuffle32(0, 1, 4, 5).localSet(columns[2]!);
  f.localGet(t2).localGet(t3).shuffle32(2, 3, 6, 7).localSet(columns[3]!);
}

/** Loads four consecutive v128 (64 bytes at the address in local `address` plus `offset`) into `rows`. */
export function emitLoad4(f: FunctionBuilder, address: number, offset: number, rows: readonly number[]): void {
  rows.forEach((row, i) =>
    f
      .localGet(address)
      .simdMemory(SimdOp.v128Load, 4, offset + 16 * i)
      .localSet(row),
  );
}

/** Stores four v128 locals at consecutive addresses (64 bytes at local `address` plus `offset`). */
export function emitStore4(f: FunctionBuilder, address: number, offset: number, rows: readonly number[]): void {
  rows.forEach((row, i) =>
    f
      .localGet(address)
      .localGet(row)
      .simdMemory(SimdOp.v128Store, 4, offset + 16 * i),
  );
}
