import draco3d from 'draco3d';
import type { PlainMesh } from './meshWriters';

/** Draco's own encoder (npm draco3d), loaded once. */
const encoderModule = draco3d.createEncoderModule({});

/** How writeDracoGlb compresses: position quantization bits (0: none, lossless) and the connectivity coder. */
export interface DracoWriteOptions {
  quantizationBits?: number;
  method?: 'edgebreaker' | 'sequential';
}

/**
 * The GLB of `mesh` as one primitive compressed with KHR_draco_mesh_compression, as an exporter writes
 * it: the Draco bytes in buffer view 0, accessors with counts and no buffer view, the extension naming
 * the positions' unique id. Returns the document and its binary chunk.
 */
export async function dracoGltfParts(mesh: PlainMesh, options: DracoWriteOptions = {}): Promise<{ json: Record<string, unknown>; bin: Uint8Array }> {
  const draco = await encoderModule;
  const encoder = new draco.Encoder();
  const builder = new draco.MeshBuilder();
  const dracoMesh = new draco.Mesh();
  const encoded = new draco.DracoInt8Array();
  try {
    const points = mesh.positions.length / 3;
    const faces = mesh.indices.length / 3;
    builder.AddFacesToMesh(dracoMesh, faces, Uint32Array.from(mesh.indices));
    const attribute = builder.AddFloatAttributeToMesh(dracoMesh, draco.POSITION, points, 3, Float32Array.from(mesh.positions));
    if ((options.quantizationBits ?? 0) > 0) encoder.SetAttributeQuantization(draco.POSITION, options.quantizationBits!);
    encoder.SetEncodingMethod(options.method === 'sequential' ? draco.MESH_SEQUENTIAL_ENCODING : draco.MESH_EDGEBREAKER_ENCODING);
    const length = encoder.EncodeMeshToDracoBuffer(dracoMesh, encoded);
    if (length <= 0) throw new Error('the Draco encoder wrote nothing');
    const padded = new Uint8Array(length + ((4 - (length % 4)) % 4));
    for (let i = 0; i < length; i++) padded[i] = encoded.GetValue(i) & 0xff;
    // A mesh built attribute by attribute gives each the unique id equal to its index.
    const extension = { bufferView: 0, attributes: { POSITION: attribute } };
    const json: Record<string, unknown> = {
      asset: { version: '2.0' },
      extensionsUsed: ['KHR_draco_mesh_compression'],
      extensionsRequired: ['KHR_draco_mesh_compression'],
      buffers: [{ byteLength: padded.length }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: length }],
      accessors: [
        { componentType: 5126, count: points, type: 'VEC3' },
        { componentType: 5125, count: 3 * faces, type: 'SCALAR' },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: 4, extensions: { KHR_draco_mesh_compression: extension } }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
      scene: 0,
    };
    return { json, bin: padded };
  } finally {
    for (const object of [encoded, dracoMesh, builder, encoder]) draco.destroy(object);
  }
}
