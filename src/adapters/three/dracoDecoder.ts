import type { GltfOptions } from '../../meshes/gltf';
import type { DracoGltfDecoder } from '../../meshes/gltfAccessor';

/** The parts of the Draco decoder module (Emscripten's embind build three.js ships) this file calls. */
interface DracoObject {
  readonly ptr: number;
}
interface DracoStatus {
  ok(): boolean;
  error_msg(): string;
}
interface DracoMesh extends DracoObject {
  num_faces(): number;
  num_points(): number;
}
interface DracoAttribute extends DracoObject {
  num_components(): number;
}
interface DracoDecoder extends DracoObject {
  GetEncodedGeometryType(data: Int8Array): number;
  DecodeArrayToMesh(data: Int8Array, byteLength: number, mesh: DracoMesh): DracoStatus;
  GetAttributeByUniqueId(mesh: DracoMesh, id: number): DracoAttribute;
  GetTrianglesUInt32Array(mesh: DracoMesh, byteLength: number, pointer: number): boolean;
  GetAttributeDataArrayForAllPoints(mesh: DracoMesh, attribute: DracoAttribute, type: number, byteLength: number, pointer: number): boolean;
}
interface DracoModule {
  Decoder: new () => DracoDecoder;
  Mesh: new () => DracoMesh;
  TRIANGULAR_MESH: number;
  DT_FLOAT32: number;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  destroy(object: DracoObject): void;
}
type DracoModuleFactory = (settings: { wasmBinary: Uint8Array; onModuleLoaded(module: DracoModule): void }) => unknown;

/**
 * The Draco decoder three.js ships (three/examples/jsm/libs/draco/gltf: draco_wasm_wrapper.js and
 * draco_decoder.wasm), ready for the core's glTF reader. The caller brings the two files' contents — the
 * page's worker from its own bundle, the headless tools from node_modules — so nothing is fetched from
 * the network and this file depends on no bundler. The wrapper is a classic script defining
 * `DracoDecoderModule`; it is evaluated with `process` hidden, so that under Node too it takes the path
 * that reads the wasm from `wasmBinary` instead of reaching for Node's modules.
 */
export async function createDracoGltfDecoder(wrapperSource: string, wasmBinary: Uint8Array): Promise<DracoGltfDecoder> {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the wrapper is a classic script, not a module
  const load = new Function('process', `${wrapperSource}\nreturn DracoDecoderModule;`) as (hiddenProcess: undefined) => DracoModuleFactory;
  const factory = load(undefined);
  const draco = await new Promise<DracoModule>((resolve) => {
    factory({ wasmBinary, onModuleLoaded: resolve });
  });
  return { decode: (data, positionId) => decodeDraco(draco, data, positionId) };
}

/** `createDracoGltfDecoder` as the reader's options, for spreading beside the meshopt ones. */
export async function dracoGltfOptions(wrapperSource: string, wasmBinary: Uint8Array): Promise<Pick<GltfOptions, 'draco'>> {
  return { draco: await createDracoGltfDecoder(wrapperSource, wasmBinary) };
}

function decodeDraco(draco: DracoModule, data: Uint8Array, positionId: number): { positions: Float32Array; indices: Uint32Array } {
  const bytes = new Int8Array(data.buffer, data.byteOffset, data.byteLength);
  const decoder = new draco.Decoder();
  const mesh = new draco.Mesh();
  try {
    if (decoder.GetEncodedGeometryType(bytes) !== draco.TRIANGULAR_MESH)
      throw new Error('the data holds no triangle mesh (a point cloud, or not Draco)');
    const status = decoder.DecodeArrayToMesh(bytes, bytes.byteLength, mesh);
    if (!status.ok() || mesh.ptr === 0) throw new Error(status.error_msg() || 'decoding failed');
    const attribute = decoder.GetAttributeByUniqueId(mesh, positionId);
    if (attribute.ptr === 0) throw new Error(`it has no attribute with id ${positionId}`);
    if (attribute.num_components() !== 3) throw new Error(`attribute ${positionId} has ${attribute.num_components()} components, not 3`);
    const positions = copyOut(draco, 3 * mesh.num_points(), (bytes, pointer) =>
      decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, draco.DT_FLOAT32, bytes, pointer),
    );
    const indices = copyOut(draco, 3 * mesh.num_faces(), (bytes, pointer) => decoder.GetTrianglesUInt32Array(mesh, bytes, pointer));
    return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
  } finally {
    draco.destroy(mesh);
    draco.destroy(decoder);
  }
}

/** `count` 4-byte values the decoder writes into its own heap, copied out byte for byte (its memory may grow and move later). */
function copyOut(draco: DracoModule, count: number, write: (bytes: number, pointer: number) => boolean): ArrayBuffer {
  const bytes = 4 * count;
  const pointer = draco._malloc(bytes);
  try {
    if (!write(bytes, pointer)) throw new Error('the decoder could not copy its output');
    // HEAPF32's buffer is read after the write: the decoder's memory may have grown (and moved) meanwhile.
    return draco.HEAPF32.buffer.slice(pointer, pointer + bytes) as ArrayBuffer;
  } finally {
    draco._free(pointer);
  }
}
