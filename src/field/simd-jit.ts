import { emitTrigFunction } from '../platform/f32x4Trig';
import { emitLoad4, emitStore4, emitTranspose4 } from '../platform/f32x4Transpose';
import { ModuleBuilder } from '../platform/wasmEmitter';
import { Op, SimdOp, ValueType } from '../platform/wasmOpcodes';
import { ARGUMENTS_OF_OPCODE, OPERATION_OF_OPCODE, instructionWords, type OperationName } from './opcodes';
import { POSITION_REGISTER, WIND_REGISTER, type FieldProgram } from './program';
import { LanePool, emitLaneOperation, type LaneFunctions } from './simd-lanes';
import { COMPACTION_TABLE_AT, DISCARD_AT, PERMUTATION_AT } from './simd-memory';
import { emitNoiseFunction } from './simd-noise';

/**
 * The SIMD JIT: turns validated bytecode into one WebAssembly function with a single fused loop over
 * the points, four per iteration, every value in v128 locals (structure of arrays, see simd-lanes.ts):
 *
 *   kernel(codeAt, positionsAt, windAt, count, listAt, branching, planeBytes) → points redone
 *       count a multiple of JIT_POINTS_PER_ITERATION; listAt: 4·count + 16 bytes of scratch;
 *       branching ≠ 0: a branch per group instead of the redo list (see below);
 *       planeBytes: the distance between component planes (the 'planes' layout only)
 *
 * Points come in one of two layouts (JitPointLayout). In 'rows' (array of structures: x y z w per
 * point) each iteration loads four positions and four winds, transposes them into component vectors,
 * runs the program, transposes the wind back and stores it. In 'planes' (structure of arrays: every x,
 * then every y and z, planeBytes apart; w is +0 and the wind's w is not kept) each component of four
 * points is one v128.load and the wind one v128.store per component, no transposes; the redo loop
 * gathers and scatters lanes (v128.load32_lane, v128.store32_lane). Without w, the work only the
 * wind's w needs is dead code the engine drops (measured 18 % faster than four planes on whirl +
 * explosion). The bytecode is first put in
 * single-assignment form (each argument names the instruction that computed it), then:
 * - instructions the final wind does not depend on are dropped;
 * - instructions that read only constants (such as `radius * radius`) run once, before the loop;
 * - work only a select's "where non-zero" side needs is not done in the main loop: there the select
 *   gives its "where zero" side, and a point where its mask has a non-zero lane is flagged, its wind
 *   left as it came and its offset put on a list (no branch: a branch per group taken for one group in
 *   five, as for an explosion, mispredicts often and costs more than the work it skips). A second,
 *   redo loop then runs the whole program on the listed points, four at a time, each select in full
 *   with its exclusive work under `if (any lane of the mask)`. An unflagged point's selects all gave
 *   their "where zero" side bit for bit, so results are the same bits as computing everything.
 *   Where most points get flagged, redoing them costs more than a branch per group (then taken
 *   nearly always, so predicted well): the kernel also holds that main loop, where a select's
 *   exclusive work runs under `if (any lane of the mask)`, and runs it when the caller asks
 *   (simd-runtime.ts asks after a call that redid more than 30 % of its points).
 * Patchable constants are read from the bytecode copy in memory at each call (setConstant needs no
 * recompilation); the others are baked in as v128 constants. Where a program divides, components of
 * patchable constants that are ±0 when it compiles (a whirl's axis) are taken as ±0 by a second copy
 * of the main loop, which each call runs while the bytecode still holds ±0 there. Noise, sin and cos
 * are functions of the module, emitted only when the program uses them.
 */
interface Instruction {
  readonly operation: OperationName;
  /** Where each argument comes from. */
  readonly sources: readonly Source[];
  readonly immediate: number;
}

/** An argument: an instruction's result, an input channel, a register never written (zero) or an inline constant. */
type Source =
  | { readonly kind: 'instruction'; readonly index: number }
  | { readonly kind: 'position' | 'wind' | 'zero' }
  | { readonly kind: 'constant'; readonly at: number };

/** The program in single-assignment form, and where the final wind comes from. */
function decode(program: FieldProgram): { instructions: Instruction[]; output: Source } {
  const { words } = program;
  const instructions: Instruction[] = [];
  const writer = new Map<number, Source>([
    [POSITION_REGISTER, { kind: 'position' }],
    [WIND_REGISTER, { kind: 'wind' }],
  ]);
  const zero: Source = { kind: 'zero' };
  for (let pc = 0; pc < words.length; pc += instructionWords(words[pc]!)) {
    const opcode = words[pc]!;
    const sources: Source[] = [];
    let immediate = 0;
    let at = pc + 2;
    for (const kind of ARGUMENTS_OF_OPCODE[opcode]!) {
      if (kind === 'r') sources.push(writer.get(words[at]!) ?? zero);
      else if (kind === 'c') sources.push({ kind: 'constant', at });
      else immediate = words[at]!;
      at += kind === 'c' ? 4 : 1;
    }
    writer.set(words[pc + 1]!, { kind: 'instruction', index: instructions.length });
    instructions.push({ operation: OPERATION_OF_OPCODE[opcode]!.name, sources, immediate });
  }
  return { instructions, output: writer.get(WIND_REGISTER)! };
}

/**
 * Groups of four points per loop iteration, their instructions interleaved when more than one (more
 * independent work to overlap within an iteration). Two measured no faster than one on whirl +
 * explosion with a branch per deferring select (taken more often for eight points), and with the
 * redo list 2-4 % faster at best, no faster at the median: not worth the doubled code.
 */
const GROUPS_PER_ITERATION = 1;
/** Operations whose result has the same value in all four components. */
const SCALAR_RESULTS: ReadonlySet<OperationName> = new Set(['dot', 'length', 'noise']);
/**
 * Comparisons whose union over components is one comparison with a bound: the scalar on the left
 * (x < b) or on the right (b < x, that is x > b), and whether the bound is the largest component.
 */
const BOUNDED_COMPARISONS: Partial<Record<OperationName, Record<'scalarLeft' | 'scalarRight', { opcode: SimdOp; largest: boolean }>>> = {
  lt: { scalarLeft: { opcode: SimdOp.f32x4Lt, largest: true }, scalarRight: { opcode: SimdOp.f32x4Gt, largest: false } },
  le: { scalarLeft: { opcode: SimdOp.f32x4Le, largest: true }, scalarRight: { opcode: SimdOp.f32x4Ge, largest: false } },
  gt: { scalarLeft: { opcode: SimdOp.f32x4Gt, largest: false }, scalarRight: { opcode: SimdOp.f32x4Lt, largest: true } },
  ge: { scalarLeft: { opcode: SimdOp.f32x4Ge, largest: false }, scalarRight: { opcode: SimdOp.f32x4Le, largest: true } },
};
/** The kernel's count must be a multiple of this. */
export const JIT_POINTS_PER_ITERATION = 4 * GROUPS_PER_ITERATION;

/** How the kernel finds points: float4 rows (x y z w per point), or one plane per component x, y, z. */
export type JitPointLayout = 'rows' | 'planes';
/** Component planes of the 'planes' layout: x, y, z (w is +0 on the way in, not kept on the way out). */
export const POINT_PLANES = 3;

export function buildJitModule(program: FieldProgram, layout: JitPointLayout = 'rows'): Uint8Array<ArrayBuffer> {
  const { instructions, output } = decode(program);
  const count = instructions.length;

  // Liveness, invariance and uses, on the single-assignment form.
  const live = new Array<boolean>(count).fill(false);
  const mark = (source: Source): void => {
    if (source.kind === 'instruction') live[source.index] = true;
  };
  mark(output);
  for (let i = count - 1; i >= 0; i--) if (live[i]) instructions[i]!.sources.forEach(mark);
  const invariant = new Array<boolean>(count).fill(false);
  const uses: { user: number; argument: number }[][] = instructions.map(() => []);
  instructions.forEach((instruction, i) => {
    if (!live[i]) return;
    invariant[i] = instruction.sources.every(
      (source) => source.kind === 'constant' || source.kind === 'zero' || (source.kind === 'instruction' && invariant[source.index]),
    );
    instruction.sources.forEach((source, argument) => {
      if (source.kind === 'instruction') uses[source.index]!.push({ user: i, argument });
    });
  });
  const outputUse = output.kind === 'instruction' ? output.index : -1;

  // Work only a select's second argument needs: deferred into that select (the innermost one).
  const deferredTo = new Array<number>(count).fill(-1);
  const deferring = new Array<boolean>(count).fill(false);
  for (let s = count - 1; s >= 0; s--) {
    const select = instructions[s]!;
    if (!live[s] || invariant[s] || select.operation !== 'select') continue;
    const members = new Set<number>();
    for (let i = s - 1; i >= 0; i--) {
      if (!live[i] || invariant[i] || i === outputUse || uses[i]!.length === 0) continue;
      if (uses[i]!.every(({ user, argument }) => members.has(user) || (user === s && argument === 1))) members.add(i);
    }
    for (const member of members) deferredTo[member] = s;
    deferring[s] = members.size > 0;
  }

  const used = new Set(instructions.filter((_, i) => live[i]).map((instruction) => instruction.operation));
  const module = new ModuleBuilder().importMemory('env', 'memory', 1);
  const functions: LaneFunctions = {
    trig: used.has('sin') || used.has('cos') ? emitTrigFunction(module) : -1,
    noise: used.has('noise') ? emitNoiseFunction(module, PERMUTATION_AT) : -1,
  };
  const i32 = ValueType.i32;
  const f = module.function([i32, i32, i32, i32, i32, i32, i32], [i32], 'kernel');
  const [codeAt, positionsAt, windAt, pointCount, listAt, branching, planeBytes] = [0, 1, 2, 3, 4, 5, 6];
  const planes = layout === 'planes';
  /** Bytes from one point to the next within what the kernel loads (a row, or a component plane). */
  const pointBytes = planes ? 4 : 16;
  /** Where each component plane starts ('planes' only). */
  const positionPlanes = planes ? Array.from({ length: POINT_PLANES }, () => f.local(i32)) : [];
  const windPlanes = planes ? Array.from({ length: POINT_PLANES }, () => f.local(i32)) : [];
  const position = f.local(i32);
  const wind = f.local(i32);
  const end = f.local(i32);
  const pool = new LanePool(f);
  const take4 = (): number[] => [pool.take(), pool.take(), pool.take(), pool.take()];

  const patched = new Set<number>();
  for (let i = 1; i < program.patches.length; i += 2) patched.add(program.patches[i]!);
  const constantLocals = new Map<number, number[]>();
  /** Patchable constant components that are ±0 at compilation: their locals and float offsets. */
  const assumedZeros: { local: number; at: number }[] = [];
  const constant = (at: number): number[] => {
    let locals = constantLocals.get(at);
    if (locals === undefined) {
      locals = take4();
      locals.forEach((local, k) => {
        const value = program.floats[at + k]!;
        if (patched.has(at)) f.localGet(codeAt).simdMemory(SimdOp.v128Load32Splat, 2, (at + k) * 4);
        else f.f32x4Const(value, value, value, value);
        f.localSet(local);
        // A baked-in ±0 component lets divisions of what it zeroes skip the divider (simd-lanes.ts);
        // a patchable one only in the main loop that checks it still is.
        if (!patched.has(at) && value === 0) pool.facts.set(local, 'zeroOrNaN');
        if (patched.has(at) && value === 0) assumedZeros.push({ local, at: at + k });
      });
      constantLocals.set(at, locals);
    }
    return locals;
  };
  const zero = take4();
  f.f32x4Const(0, 0, 0, 0);
  zero.forEach((local, k) => {
    if (k === 0) f.localSet(local);
    else f.localGet(zero[0]!).localSet(local);
    pool.facts.set(local, 'zeroOrNaN');
  });
  // Every constant before the loop, so none is materialised inside a branch.
  instructions.forEach((instruction, i) => {
    if (live[i]) for (const source of instruction.sources) if (source.kind === 'constant') constant(source.at);
  });

  const groups = Array.from({ length: GROUPS_PER_ITERATION }, (_, g) => g);
  /** valueOf[group][instruction]: the result's component locals (shared by the groups when invariant). */
  const valueOf: number[][][] = groups.map(() => []);
  const positionColumns: number[][] = groups.map(() => zero);
  const windColumns: number[][] = groups.map(() => zero);
  const value = (source: Source, g: number): number[] => {
    switch (source.kind) {
      case 'instruction':
        return valueOf[g]![source.index]!;
      case 'position':
        return positionColumns[g]!;
      case 'wind':
        return windColumns[g]!;
      case 'zero':
        return zero;
      case 'constant':
        return constant(source.at);
    }
  };
  /**
   * In the main loop a top-level deferring select takes its "where zero" side and only records, in
   * flagged[g], the lanes where its mask has a non-zero component; the redo loop runs it in full.
   */
  let fullSelects = false;
  const flagged: (number | undefined)[] = groups.map(() => undefined);
  /** Emits instruction i for the given groups (all of them outside a select's branch). */
  const emitInstruction = (i: number, forGroups: readonly number[] = groups): void => {
    const instruction = instructions[i]!;
    if (invariant[i]) {
      const result = emitLaneOperation(
        f,
        pool,
        functions,
        instruction.operation,
        instruction.sources.map((source) => value(source, 0)),
        instruction.immediate,
      );
      for (const g of groups) valueOf[g]![i] = result;
      return;
    }
    for (const g of forGroups) {
      if (deferring[i] && !fullSelects && deferredTo[i]! < 0) emitFlaggedSelect(i, g);
      else if (deferring[i]) emitDeferringSelect(i, g);
      else
        valueOf[g]![i] = emitLaneOperation(
          f,
          pool,
          functions,
          instruction.operation,
          instruction.sources.map((source) => value(source, g)),
          instruction.immediate,
        );
    }
  };
  /** The locals of a mask's lanes: a comparison's all-ones mask, else `component ≠ 0`. */
  const maskLocals = (components: readonly number[]): number[] =>
    components.map((component) => {
      const known = pool.maskOf.get(component);
      if (known !== undefined) return known;
      const mask = pool.take();
      f.localGet(component).f32x4Const(0, 0, 0, 0).simd(SimdOp.f32x4Ne).localSet(mask);
      return mask;
    });
  /** Pushes the union of the masks' lanes. */
  const emitUnion = (masks: readonly number[]): void =>
    [...new Set(masks)].forEach((mask, k) => {
      f.localGet(mask);
      if (k > 0) f.simd(SimdOp.v128Or);
    });
  /** select(m, b, c) for one group, b's exclusive work under `if (any lane of m is non-zero)`. */
  const emitDeferringSelect = (s: number, g: number): void => {
    const [maskSource, whereNonZero, whereZero] = instructions[s]!.sources as [Source, Source, Source];
    const masks = maskLocals(value(maskSource, g));
    emitUnion(masks);
    const result = take4();
    const otherwise = value(whereZero, g);
    f.simd(SimdOp.v128AnyTrue).if();
    const forget = pool.remember();
    for (let i = 0; i < s; i++) if (deferredTo[i] === s) emitInstruction(i, [g]);
    const chosen = value(whereNonZero, g);
    result.forEach((local, k) => f.localGet(chosen[k]!).localGet(otherwise[k]!).localGet(masks[k]!).simd(SimdOp.v128Bitselect).localSet(local));
    forget();
    f.else();
    result.forEach((local, k) => f.localGet(otherwise[k]!).localSet(local));
    f.end();
    valueOf[g]![s] = result;
  };
  /** select(m, b, c) as c, the lanes where m has a non-zero component added to flagged[g]. */
  const emitFlaggedSelect = (s: number, g: number): void => {
    const [maskSource, , whereZero] = instructions[s]!.sources as [Source, Source, Source];
    const bound = boundOf.get(s);
    if (bound !== undefined) f.localGet(value(bound.scalar, g)[0]!).localGet(bound.local).simd(bound.comparison);
    else emitUnion(maskLocals(value(maskSource, g)));
    const before = flagged[g];
    if (before !== undefined) f.localGet(before).simd(SimdOp.v128Or);
    const union = pool.take();
    f.localSet(union);
    flagged[g] = union;
    valueOf[g]![s] = value(whereZero, g);
  };

  // Before the loop: constant-only instructions.
  instructions.forEach((_, i) => {
    if (live[i] && invariant[i]) emitInstruction(i);
  });
  const redoesSelects = instructions.some((_, i) => live[i] && deferring[i] && deferredTo[i]! < 0);
  // Flags from one comparison: a scalar (the same in every component) against a loop-invariant float4
  // is below some component exactly where it is below their largest (NaN components never compare
  // true, so they are left out); likewise above, the smallest. For an explosion's
  // `dot(offset, offset) < radius * radius`, one comparison instead of four and three ors.
  const boundOf = new Map<number, { scalar: Source; local: number; comparison: SimdOp }>();
  instructions.forEach((select, s) => {
    const mask = select.sources[0];
    if (!live[s] || !deferring[s] || deferredTo[s]! >= 0 || mask?.kind !== 'instruction') return;
    const comparison = instructions[mask.index]!;
    const bounded = BOUNDED_COMPARISONS[comparison.operation];
    if (bounded === undefined || invariant[mask.index]) return;
    const isScalar = (source: Source): boolean =>
      source.kind === 'instruction' && !invariant[source.index] && SCALAR_RESULTS.has(instructions[source.index]!.operation);
    const isInvariant = (source: Source): boolean =>
      source.kind === 'constant' || source.kind === 'zero' || (source.kind === 'instruction' && invariant[source.index]!);
    const [left, right] = comparison.sources as [Source, Source];
    // b > x is x < b: with the scalar on the right the comparison flips.
    const [scalar, limits, { opcode, largest }] =
      isScalar(left) && isInvariant(right)
        ? [left, right, bounded.scalarLeft]
        : isScalar(right) && isInvariant(left)
          ? [right, left, bounded.scalarRight]
          : [undefined, undefined, bounded.scalarLeft];
    if (scalar === undefined || limits === undefined) return;
    const components = value(limits, 0);
    const local = pool.take();
    f.localGet(components[0]!).localSet(local);
    for (const component of components.slice(1)) {
      // local = component where it is further out than local or local is NaN
      f.localGet(component).localGet(local);
      if (largest) f.localGet(local).localGet(component).simd(SimdOp.f32x4Lt);
      else f.localGet(component).localGet(local).simd(SimdOp.f32x4Lt);
      f.localGet(local).localGet(local).simd(SimdOp.f32x4Ne).simd(SimdOp.v128Or);
      f.simd(SimdOp.v128Bitselect).localSet(local);
    }
    boundOf.set(s, { scalar, local, comparison: opcode });
  });

  // The main loop over groups of four points.
  f.localGet(pointCount).op(Op.i32Eqz).op(Op.i32Eqz).if();
  if (planes) {
    // One offset walks every plane: from 0 to count · 4 bytes.
    for (const [bases, at] of [
      [positionPlanes, positionsAt],
      [windPlanes, windAt],
    ] as const)
      bases.forEach((base, k) => {
        f.localGet(at);
        for (let times = 0; times < k; times++) f.localGet(planeBytes).op(Op.i32Add);
        f.localSet(base);
      });
    f.i32Const(0).localSet(position);
    f.localGet(pointCount).i32Const(4).op(Op.i32Mul).localSet(end);
  } else {
    f.localGet(positionsAt).localSet(position);
    f.localGet(windAt).localSet(wind);
    f.localGet(positionsAt).localGet(pointCount).i32Const(16).op(Op.i32Mul).op(Op.i32Add).localSet(end);
  }
  // The byte offsets of the group's points in the arrays, the end of the redo list, flagged lanes.
  const offsets = pool.take();
  const offsetStep = pool.take();
  const listEnd = f.local(i32);
  const laneBits = f.local(i32);
  if (redoesSelects) {
    f.i32x4Const(0, pointBytes, 2 * pointBytes, 3 * pointBytes).localSet(offsets);
    const step = 4 * pointBytes * GROUPS_PER_ITERATION;
    f.i32x4Const(step, step, step, step).localSet(offsetStep);
    f.localGet(listAt).localSet(listEnd);
  }
  /** The four component planes of a group, from the plane starts in `bases`, at the offset in `position`. */
  const loadPlanes = (bases: readonly number[], g: number): number[] => [
    ...bases.map((base) => {
      const column = pool.take();
      f.localGet(base)
        .localGet(position)
        .op(Op.i32Add)
        .simdMemory(SimdOp.v128Load, 4, 16 * g)
        .localSet(column);
      return column;
    }),
    ...zero.slice(bases.length),
  ];
  const loadColumns = (rows: readonly number[]): number[] => {
    const columns = take4();
    emitTranspose4(f, rows, columns, take4());
    return columns;
  };
  const load4 = (address: number, g: number): number[] => {
    const rows = take4();
    emitLoad4(f, address, 64 * g, rows);
    return rows;
  };
  /** The program once per loop iteration: every live instruction that varies and is not deferred into a select. */
  const emitLoopBody = (forGroups: readonly number[]): void =>
    instructions.forEach((_, i) => {
      if (live[i] && !invariant[i] && deferredTo[i]! < 0) emitInstruction(i, forGroups);
    });
  const emitMainLoop = (): void => {
    const forgetLoop = pool.remember();
    flagged.fill(undefined);
    f.loop();
    for (const g of groups) {
      positionColumns[g] = planes ? loadPlanes(positionPlanes, g) : loadColumns(load4(position, g));
      windColumns[g] = planes ? loadPlanes(windPlanes, g) : loadColumns(load4(wind, g));
    }
    emitLoopBody(groups);
    for (const g of groups) {
      const columns = value(output, g);
      const lanes = flagged[g];
      if (lanes !== undefined) {
        // Flagged points' offsets go on the redo list: the table gathers their lanes to the front.
        f.localGet(lanes).simd(SimdOp.i32x4Bitmask).localSet(laneBits);
        f.localGet(listEnd).localGet(offsets);
        const groupBytes = 4 * pointBytes * g;
        if (g > 0) f.i32x4Const(groupBytes, groupBytes, groupBytes, groupBytes).simd(SimdOp.i32x4Add);
        f.localGet(laneBits).i32Const(4).op(Op.i32Shl).simdMemory(SimdOp.v128Load, 4, COMPACTION_TABLE_AT);
        f.simd(SimdOp.i8x16Swizzle).simdMemory(SimdOp.v128Store, 2);
        f.localGet(listEnd).localGet(laneBits).op(Op.i32Popcnt).i32Const(2).op(Op.i32Shl).op(Op.i32Add).localSet(listEnd);
      }
      if (planes) {
        // A flagged lane keeps its incoming wind for the redo loop.
        columns.slice(0, windPlanes.length).forEach((column, k) => {
          f.localGet(windPlanes[k]!).localGet(position).op(Op.i32Add);
          if (lanes === undefined) f.localGet(column);
          else f.localGet(windColumns[g]![k]!).localGet(column).localGet(lanes).simd(SimdOp.v128Bitselect);
          f.simdMemory(SimdOp.v128Store, 4, 16 * g);
        });
        continue;
      }
      const rows = take4();
      emitTranspose4(f, columns, rows, take4());
      if (lanes === undefined) emitStore4(f, wind, 64 * g, rows);
      else {
        // A flagged point's row goes to a discard slot, so its incoming wind stays for the redo loop
        // (an address select per row costs less than blending the columns back).
        rows.forEach((row, k) => {
          f.i32Const(DISCARD_AT)
            .localGet(wind)
            .i32Const(64 * g + 16 * k)
            .op(Op.i32Add);
          f.localGet(laneBits)
            .i32Const(1 << k)
            .op(Op.i32And)
            .op(Op.select);
          f.localGet(row).simdMemory(SimdOp.v128Store, 4);
        });
      }
    }
    if (redoesSelects && !fullSelects) f.localGet(offsets).localGet(offsetStep).simd(SimdOp.i32x4Add).localSet(offsets);
    f.localGet(position)
      .i32Const(4 * pointBytes * GROUPS_PER_ITERATION)
      .op(Op.i32Add)
      .localSet(position);
    if (!planes)
      f.localGet(wind)
        .i32Const(64 * GROUPS_PER_ITERATION)
        .op(Op.i32Add)
        .localSet(wind);
    f.localGet(position).localGet(end).op(Op.i32LtU).brIf(0);
    f.end();
    forgetLoop();
  };
  /**
   * The redo loop: the listed points four at a time, every select in full. The list is padded to a
   * whole group with its last point, computed twice from the same inputs.
   */
  const emitRedoLoop = (): void => {
    fullSelects = true;
    f.localGet(listEnd).localGet(listAt).op(Op.i32GtU).if();
    f.localGet(listEnd).localGet(listEnd).i32Const(4).op(Op.i32Sub).memory(Op.i32Load, 2).simd(SimdOp.i32x4Splat).simdMemory(SimdOp.v128Store, 2);
    const entry = f.local(i32);
    const pointOffsets = [f.local(i32), f.local(i32), f.local(i32), f.local(i32)];
    f.localGet(listAt).localSet(entry);
    f.loop();
    pointOffsets.forEach((local, k) =>
      f
        .localGet(entry)
        .memory(Op.i32Load, 2, 4 * k)
        .localSet(local),
    );
    const gather = (base: number): number[] =>
      pointOffsets.map((offset) => {
        const row = pool.take();
        f.localGet(base).localGet(offset).op(Op.i32Add).simdMemory(SimdOp.v128Load, 4).localSet(row);
        return row;
      });
    /** Component vectors of the listed points, lane by lane from the planes starting at `bases`. */
    const gatherPlanes = (bases: readonly number[]): number[] => [
      ...bases.map((base) => {
        const column = pool.take();
        f.f32x4Const(0, 0, 0, 0).localSet(column);
        pointOffsets.forEach((offset, lane) => {
          f.localGet(base).localGet(offset).op(Op.i32Add).localGet(column);
          f.simdMemoryLane(SimdOp.v128Load32Lane, 2, 0, lane).localSet(column);
        });
        return column;
      }),
      ...zero.slice(bases.length),
    ];
    positionColumns[0] = planes ? gatherPlanes(positionPlanes) : loadColumns(gather(positionsAt));
    windColumns[0] = planes ? gatherPlanes(windPlanes) : loadColumns(gather(windAt));
    emitLoopBody([0]);
    if (planes)
      value(output, 0)
        .slice(0, windPlanes.length)
        .forEach((column, k) =>
          pointOffsets.forEach((offset, lane) =>
            f.localGet(windPlanes[k]!).localGet(offset).op(Op.i32Add).localGet(column).simdMemoryLane(SimdOp.v128Store32Lane, 2, 0, lane),
          ),
        );
    else {
      const rows = take4();
      emitTranspose4(f, value(output, 0), rows, take4());
      pointOffsets.forEach((offset, k) => f.localGet(windAt).localGet(offset).op(Op.i32Add).localGet(rows[k]!).simdMemory(SimdOp.v128Store, 4));
    }
    f.localGet(entry).i32Const(16).op(Op.i32Add).localTee(entry).localGet(listEnd).op(Op.i32LtU).brIf(0);
    f.end().end();
  };
  const emitMainLoops = (): void => {
    if (assumedZeros.length === 0 || !used.has('div')) {
      emitMainLoop();
      return;
    }
    // Patchable components that are ±0 now are very likely ±0 at every call (an axis, a plane's
    // normal): a second main loop knows them to be, and runs while the bytecode still says so.
    for (const { at } of assumedZeros)
      f.localGet(codeAt)
        .memory(Op.i32Load, 2, at * 4)
        .i32Const(0x7fffffff)
        .op(Op.i32And);
    for (let k = 1; k < assumedZeros.length; k++) f.op(Op.i32Or);
    f.op(Op.i32Eqz).if();
    for (const { local } of assumedZeros) pool.facts.set(local, 'zeroOrNaN');
    emitMainLoop();
    for (const { local } of assumedZeros) pool.facts.delete(local);
    f.else();
    emitMainLoop();
    f.end();
  };
  /** The kernel's result: how many points the redo loop took (0 when there was none to take). */
  const listed = f.local(i32);
  if (!redoesSelects) emitMainLoops();
  else {
    // Where most points are flagged, redoing them costs more than a branch per group mispredicts
    // (a branch taken nearly always is predicted well): the caller asks for that loop then.
    f.localGet(branching).if();
    fullSelects = true;
    emitMainLoops();
    f.else();
    fullSelects = false;
    emitMainLoops();
    emitRedoLoop();
    f.localGet(listEnd).localGet(listAt).op(Op.i32Sub).i32Const(2).op(Op.i32ShrU).localSet(listed);
    f.end();
  }
  f.end();
  f.localGet(listed);
  return module.build();
}
