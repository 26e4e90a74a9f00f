import type { MeshBuilder } from './meshBuilder';

/**
 * Gives every distinct point one vertex index: STL stores three corners per triangle, so a closed mesh
 * repeats each point about six times. Points are equal when their float32 bit patterns are (after −0 is
 * made +0); an open-addressing hash table of vertex indices finds them without a string or object per point.
 */
export class VertexWelder {
  private table = new Int32Array(1 << 12).fill(-1);
  private used = 0;
  private readonly bits = new Uint32Array(3);
  private readonly floats = new Float32Array(this.bits.buffer);

  constructor(private readonly mesh: MeshBuilder) {}

  /** The index of the vertex at (x, y, z), added to the mesh when it is new. */
  vertex(x: number, y: number, z: number): number {
    const floats = this.floats;
    // Adding 0 turns −0 into +0, so the two zeros weld.
    floats[0] = x + 0;
    floats[1] = y + 0;
    floats[2] = z + 0;
    const bits = this.bits;
    const bx = bits[0]!;
    const by = bits[1]!;
    const bz = bits[2]!;
    if (2 * (this.used + 1) > this.table.length) this.rehash();
    const table = this.table;
    const mask = table.length - 1;
    const positions = this.mesh.positionsView();
    for (let slot = hash(bx, by, bz) & mask; ; slot = (slot + 1) & mask) {
      const index = table[slot]!;
      if (index < 0) {
        const added = this.mesh.addVertex(floats[0], floats[1], floats[2]);
        table[slot] = added;
        this.used++;
        return added;
      }
      floats[0] = positions[3 * index]!;
      floats[1] = positions[3 * index + 1]!;
      floats[2] = positions[3 * index + 2]!;
      if (bits[0] === bx && bits[1] === by && bits[2] === bz) {
        this.mesh.mergedVertices++;
        return index;
      }
      bits[0] = bx;
      bits[1] = by;
      bits[2] = bz;
    }
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    const positions = this.mesh.positionsView();
    const floats = this.floats;
    const bits = this.bits;
    for (const index of this.table) {
      if (index < 0) continue;
      floats[0] = positions[3 * index]!;
      floats[1] = positions[3 * index + 1]!;
      floats[2] = positions[3 * index + 2]!;
      let slot = hash(bits[0]!, bits[1]!, bits[2]!) & mask;
      while (table[slot]! >= 0) slot = (slot + 1) & mask;
      table[slot] = index;
    }
    this.table = table;
  }
}

function hash(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}
