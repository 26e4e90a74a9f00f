declare module 'bunny' {
  /** The Stanford bunny (public domain): vertex positions [x, y, z]… and triangles as vertex index triples. */
  export const positions: [number, number, number][];
  export const cells: [number, number, number][];
}
