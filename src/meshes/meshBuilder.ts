import { ColliderscopeError } from '../errors';

/**
 * The largest triangle count a loaded mesh may have: the BVH's limit (leaf starts and node indices are
 * 24-bit fields, MAX_BVH_TRIANGLES in src/bvh). Checked before big arrays are allocated, so a 20M-triangle
 * file is refused with a message instead of running out of memory.
 */
export const MAX_MESH_TRIANGLES = (1 << 24) - 1;

/** A triangle's material id when the file named none for it. */
export const NO_MATERIAL = 0xffff;

/** The file formats the parsers read. */
export type MeshFormat = 'obj' | 'stl-ascii' | 'stl-binary' | 'gltf' | 'glb';

/** An indexed triangle mesh read from a file: ready for buildBVH, every vertex finite, every index in range. */
export interface LoadedMesh {
  readonly file: string;
  readonly format: MeshFormat;
  /** xyz per vertex. */
  readonly positions: Float32Array;
  /** Three vertex indices per triangle. */
  readonly indices: Uint32Array;
  readonly vertexCount: number;
  readonly triangleCount: number;
  /** min xyz, max xyz of the vertices the triangles use. */
  readonly bounds: Float64Array;
  /** Triangles left out because they have no area (a repeated vertex, or three points on a line). */
  readonly degenerateTriangles: number;
  /** Vertices that were the same point as an earlier one and were merged into it (STL). */
  readonly mergedVertices: number;
  /** Everything the parser repaired or skipped, one sentence each (empty when the file was clean). */
  readonly notes: readonly string[];
  /** The materials the file names (glTF materials, OBJ `usemtl`), in order of first use. */
  readonly materialNames?: readonly string[];
  /** Per triangle, its index in materialNames (NO_MATERIAL: none named); absent when the file names none. */
  readonly triangleMaterials?: Uint16Array;
}

/** Where in a file something is: a line for text formats, a byte offset for binary ones, a JSON path for glTF. */
export interface MeshWhere {
  line?: number;
  byte?: number;
  field?: string;
}

/** A ColliderscopeError naming the file and the line, byte offset or JSON path. */
export function meshError(file: string, message: string, where: MeshWhere = {}): ColliderscopeError {
  const field = where.byte !== undefined ? `byte ${where.byte}` : where.field;
  return new ColliderscopeError(message, {
    file,
    ...(where.line !== undefined ? { line: where.line } : {}),
    ...(field !== undefined ? { field } : {}),
  });
}

/**
 * Collects vertices and triangles as a parser reads them (growable typed arrays, no per-vertex objects),
 * then checks and trims them into a LoadedMesh.
 */
export class MeshBuilder {
  private positions = new Float32Array(3 * 1024);
  private indices = new Uint32Array(3 * 1024);
  private materialOf = new Uint16Array(1024);
  private readonly materialNames: string[] = [];
  private readonly materialIds = new Map<string, number>();
  private material = NO_MATERIAL;
  vertexCount = 0;
  triangleCount = 0;
  /** Triangles dropped as they were added, for repeating a vertex index. */
  private repeatedIndexTriangles = 0;
  mergedVertices = 0;
  readonly notes: string[] = [];

  constructor(
    readonly file: string,
    readonly format: MeshFormat,
  ) {}

  /** Makes room for `count` more triangles, refusing past MAX_MESH_TRIANGLES before allocating. */
  reserveTriangles(count: number, where: MeshWhere = {}): void {
    const total = this.triangleCount + count;
    if (total > MAX_MESH_TRIANGLES) {
      throw meshError(this.file, `${total} triangles is more than the ${MAX_MESH_TRIANGLES} a BVH can index`, where);
    }
    if (3 * total > this.indices.length) this.indices = grow(this.indices, 3 * total);
    if (total > this.materialOf.length) this.materialOf = grow(this.materialOf, total);
  }

  /** The triangles added from now on are of this material (null: none named). */
  useMaterial(name: string | null, where: MeshWhere = {}): void {
    if (name === null) {
      this.material = NO_MATERIAL;
      return;
    }
    let id = this.materialIds.get(name);
    if (id === undefined) {
      id = this.materialNames.length;
      if (id >= NO_MATERIAL) throw meshError(this.file, `more than ${NO_MATERIAL} materials`, where);
      this.materialIds.set(name, id);
      this.materialNames.push(name);
    }
    this.material = id;
  }

  reserveVertices(count: number): void {
    const total = this.vertexCount + count;
    if (3 * total > this.positions.length) this.positions = grow(this.positions, 3 * total);
  }

  /** The vertices so far (a view that the next addVertex may replace). */
  positionsView(): Float32Array {
    return this.positions;
  }

  /** Adds a vertex and returns its index. The caller has checked that it is finite. */
  addVertex(x: number, y: number, z: number): number {
    const v = this.vertexCount;
    if (3 * v + 3 > this.positions.length) this.positions = grow(this.positions, 3 * v + 3);
    const p = this.positions;
    p[3 * v] = x;
    p[3 * v + 1] = y;
    p[3 * v + 2] = z;
    this.vertexCount = v + 1;
    return v;
  }

  /** Adds a triangle of vertex indices already checked to be in range; one repeating an index is dropped and counted. */
  addTriangle(a: number, b: number, c: number): void {
    if (a === b || b === c || a === c) {
      this.repeatedIndexTriangles++;
      return;
    }
    const t = this.triangleCount;
    if (t >= MAX_MESH_TRIANGLES) throw meshError(this.file, `more than the ${MAX_MESH_TRIANGLES} triangles a BVH can index`);
    if (3 * t + 3 > this.indices.length) this.indices = grow(this.indices, 3 * t + 3);
    if (t >= this.materialOf.length) this.materialOf = grow(this.materialOf, t + 1);
    this.materialOf[t] = this.material;
    const i = this.indices;
    i[3 * t] = a;
    i[3 * t + 1] = b;
    i[3 * t + 2] = c;
    this.triangleCount = t + 1;
  }

  /**
   * Drops the triangles without area (a cross product of exactly zero, in doubles from the float32
   * vertices: the BVH's ray test never hits them), trims the arrays and measures the bounds. Throws when
   * no triangle is left.
   */
  finish(): LoadedMesh {
    const positions = this.positions;
    const source = this.indices;
    const kept = new Uint32Array(3 * this.triangleCount);
    const named = this.materialNames.length > 0;
    const keptMaterials = named ? new Uint16Array(this.triangleCount) : null;
    let keptCount = 0;
    let flat = 0;
    for (let t = 0; t < this.triangleCount; t++) {
      const a = 3 * source[3 * t]!;
      const b = 3 * source[3 * t + 1]!;
      const c = 3 * source[3 * t + 2]!;
      const ax = positions[a]!;
      const ay = positions[a + 1]!;
      const az = positions[a + 2]!;
      const ux = positions[b]! - ax;
      const uy = positions[b + 1]! - ay;
      const uz = positions[b + 2]! - az;
      const vx = positions[c]! - ax;
      const vy = positions[c + 1]! - ay;
      const vz = positions[c + 2]! - az;
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      if (nx === 0 && ny === 0 && nz === 0) {
        flat++;
        continue;
      }
      kept[3 * keptCount] = a / 3;
      kept[3 * keptCount + 1] = b / 3;
      kept[3 * keptCount + 2] = c / 3;
      if (keptMaterials !== null) keptMaterials[keptCount] = this.materialOf[t]!;
      keptCount++;
    }
    const degenerate = flat + this.repeatedIndexTriangles;
    const notes = [...this.notes];
    if (degenerate > 0) notes.push(`dropped ${degenerate} degenerate triangle${degenerate === 1 ? '' : 's'} (no area)`);
    if (this.mergedVertices > 0) notes.push(`merged ${this.mergedVertices} repeated vertices`);
    if (keptCount === 0) {
      const why = degenerate > 0 ? `: all ${degenerate} of its triangles are degenerate (no area)` : '';
      throw meshError(this.file, `the mesh has no triangles${why}`);
    }
    const indices = keptCount === this.triangleCount ? kept : kept.slice(0, 3 * keptCount);
    const bounds = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (let i = 0; i < indices.length; i++) {
      const v = 3 * indices[i]!;
      for (let axis = 0; axis < 3; axis++) {
        const value = positions[v + axis]!;
        if (value < bounds[axis]!) bounds[axis] = value;
        if (value > bounds[axis + 3]!) bounds[axis + 3] = value;
      }
    }
    return {
      file: this.file,
      format: this.format,
      positions: positions.slice(0, 3 * this.vertexCount),
      indices,
      vertexCount: this.vertexCount,
      triangleCount: keptCount,
      bounds,
      degenerateTriangles: degenerate,
      mergedVertices: this.mergedVertices,
      notes,
      ...(keptMaterials !== null
        ? {
            materialNames: [...this.materialNames],
            triangleMaterials: keptCount === this.triangleCount ? keptMaterials : keptMaterials.slice(0, keptCount),
          }
        : {}),
    };
  }
}

function grow<T extends Float32Array | Uint32Array | Uint16Array>(array: T, atLeast: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  return bigger;
}
