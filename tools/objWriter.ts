/**
 * What the mesh generators (generate-level.ts, generate-city.ts) share: an OBJ file built a vertex and a
 * polygon at a time, boxes and a ground grid, written with a header. Polygons list their corners
 * counter-clockwise seen from the side they face; vertices are numbered from 1 in the order made.
 */
import { writeFileSync } from 'node:fs';

export class ObjWriter {
  private readonly vertices: string[] = [];
  private readonly faces: string[] = [];
  private vertexCount = 0;

  /** A vertex; returns its OBJ number. */
  vertex(x: number, y: number, z: number): number {
    this.vertices.push(`v ${+x.toFixed(4)} ${+y.toFixed(4)} ${+z.toFixed(4)}`);
    return ++this.vertexCount;
  }

  /** A convex polygon, corners counter-clockwise seen from the side it faces. */
  face(...corners: number[]): void {
    this.faces.push(`f ${corners.join(' ')}`);
  }

  /** A closed axis-aligned box from (x0, y0, z0) to (x1, y1, z1), facing out. */
  box(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
    const c = [
      this.vertex(x0, y0, z0),
      this.vertex(x1, y0, z0),
      this.vertex(x1, y0, z1),
      this.vertex(x0, y0, z1),
      this.vertex(x0, y1, z0),
      this.vertex(x1, y1, z0),
      this.vertex(x1, y1, z1),
      this.vertex(x0, y1, z1),
    ] as const;
    this.face(c[0], c[1], c[2], c[3]); // bottom, facing −y
    this.face(c[4], c[7], c[6], c[5]); // top, +y
    this.face(c[0], c[4], c[5], c[1]); // −z
    this.face(c[3], c[2], c[6], c[7]); // +z
    this.face(c[0], c[3], c[7], c[4]); // −x
    this.face(c[1], c[5], c[6], c[2]); // +x
  }

  /** A ground of cells × cells quads over [−size/2, size/2]², at y = 0, facing up. */
  ground(cells: number, size: number): void {
    const first = this.vertexCount + 1;
    for (let row = 0; row <= cells; row++)
      for (let col = 0; col <= cells; col++) this.vertex(-size / 2 + (col * size) / cells, 0, -size / 2 + (row * size) / cells);
    for (let row = 0; row < cells; row++) {
      for (let col = 0; col < cells; col++) {
        const v = first + row * (cells + 1) + col;
        this.face(v, v + cells + 1, v + cells + 2, v + 1);
      }
    }
  }

  /** Writes the file: the header's comment lines, one object, its vertices and polygons. */
  write(path: string, header: readonly string[], objectName: string): void {
    writeFileSync(path, [...header, `o ${objectName}`, ...this.vertices, ...this.faces, ''].join('\n'));
    console.log(`wrote ${path}: ${this.vertexCount} vertices, ${this.faces.length} faces`);
  }
}
