import { Random } from '../../../src/math/random';

/** Small adversarial meshes shared by the BVH and ray tests. */
export interface TestMesh {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
}

function mesh(name: string, vertices: number[], triangles: number[]): TestMesh {
  return { name, positions: Float32Array.from(vertices), indices: Uint32Array.from(triangles) };
}

/** Random triangles of mixed sizes in a 100-unit cube, plus a few huge ones (big/little, spatial splits). */
export function triangleSoup(seed: number, count: number): TestMesh {
  const random = new Random(seed);
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let i = 0; i < count; i++) {
    const big = i % 37 === 0;
    const size = big ? 80 : random.range(0.1, 6);
    const cx = random.range(-50, 50),
      cy = random.range(-50, 50),
      cz = random.range(-50, 50);
    for (let v = 0; v < 3; v++) vertices.push(cx + random.range(-size, size), cy + random.range(-size, size), cz + random.range(-size, size));
    triangles.push(3 * i, 3 * i + 1, 3 * i + 2);
  }
  return mesh(`soup ${seed}`, vertices, triangles);
}

/** Long thin slivers in a lattice, half along x and half along z: every object split leaves two long,
 *  overlapping boxes, while a spatial split cuts one family and separates the other cleanly. */
export function crossedSlivers(seed: number, count: number): TestMesh {
  const random = new Random(seed);
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let i = 0; i < count; i++) {
    const across = random.range(-60, 60);
    const y = random.range(-5, 5);
    const width = random.range(0.05, 0.3);
    if (i % 2 === 0) vertices.push(-60, y, across, 60, y, across, random.range(-60, 60), y + 0.5, across + width);
    else vertices.push(across, y, -60, across, y, 60, across + width, y + 0.5, random.range(-60, 60));
    triangles.push(3 * i, 3 * i + 1, 3 * i + 2);
  }
  return mesh(`slivers ${seed}`, vertices, triangles);
}

/** The same triangle many times over: no split can separate them. */
export function stackedDuplicates(count: number): TestMesh {
  const vertices = [0, 0, 0, 1, 0, 0, 0, 0, 1];
  const triangles: number[] = [];
  for (let i = 0; i < count; i++) triangles.push(0, 2, 1);
  return mesh('duplicates', vertices, triangles);
}

/** A flat axis-aligned grid at y = 0 (zero-extent boxes on y), integer coordinates. */
export function flatGrid(cells: number): TestMesh {
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let j = 0; j <= cells; j++) for (let i = 0; i <= cells; i++) vertices.push(i, 0, j);
  const side = cells + 1;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * side + i,
        b = a + 1,
        c = a + side,
        d = c + 1;
      triangles.push(a, c, b, b, c, d);
    }
  }
  return mesh(`flat grid ${cells}`, vertices, triangles);
}

/** Degenerate triangles (zero area, repeated vertices) mixed with normal ones. */
export function withDegenerates(seed: number): TestMesh {
  const soup = triangleSoup(seed, 200);
  const vertices = Array.from(soup.positions);
  const triangles = Array.from(soup.indices);
  const base = vertices.length / 3;
  vertices.push(5, 5, 5, 6, 6, 6, 7, 7, 7);
  triangles.push(base, base + 1, base + 2, base, base, base, base + 1, base + 1, base + 2);
  return mesh(`degenerates ${seed}`, vertices, triangles);
}
