import { ColliderscopeError } from '../errors';
import { parseJsonText } from '../scene/validate';
import { AccessorReader, type DracoGltfDecoder, type MeshoptGltfDecoder } from './gltfAccessor';
import { isGlb, readGlb } from './glb';
import { composeTrs, identityMatrix, linearDeterminant, multiplyMatrices, type Matrix4 } from './gltfTransform';
import { MeshBuilder, meshError, type LoadedMesh } from './meshBuilder';

/** Gives the bytes of a buffer the document names by a relative uri (a file beside the .gltf); throws when there is none. */
export type GltfUriLoader = (uri: string) => Uint8Array;

/** Extensions that change only what the collision mesh ignores (looks, lights, variants), or that the reader handles. */
const HARMLESS_EXTENSIONS = new Set([
  'KHR_mesh_quantization',
  'KHR_materials_unlit',
  'KHR_materials_emissive_strength',
  'KHR_materials_ior',
  'KHR_materials_specular',
  'KHR_materials_transmission',
  'KHR_materials_volume',
  'KHR_materials_clearcoat',
  'KHR_materials_sheen',
  'KHR_materials_iridescence',
  'KHR_materials_anisotropy',
  'KHR_materials_dispersion',
  'KHR_materials_variants',
  'KHR_materials_pbrSpecularGlossiness',
  'KHR_texture_transform',
  'KHR_texture_basisu',
  'EXT_texture_webp',
  'EXT_texture_avif',
  'KHR_lights_punctual',
]);

const DECODER_EXTENSIONS: Readonly<Record<string, string>> = {
  KHR_draco_mesh_compression: 'Draco',
  EXT_meshopt_compression: 'meshopt',
  KHR_meshopt_compression: 'meshopt',
};

const MODE_NAMES = ['points', 'lines', 'line loop', 'line strip', 'triangles', 'triangle strip', 'triangle fan'];

interface GltfPrimitive {
  attributes?: Record<string, number>;
  indices?: number;
  mode?: number;
  targets?: unknown[];
  extensions?: Record<string, unknown>;
  material?: number;
}

interface GltfNode {
  mesh?: number;
  children?: number[];
  matrix?: number[];
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  skin?: number;
}

interface GltfDocument {
  asset?: { version?: string };
  extensionsRequired?: string[];
  extensionsUsed?: string[];
  buffers?: { uri?: string; byteLength: number; extensions?: Record<string, { fallback?: unknown } | undefined> }[];
  bufferViews?: unknown[];
  accessors?: unknown[];
  meshes?: { name?: string; primitives?: GltfPrimitive[] }[];
  materials?: { name?: unknown }[];
  nodes?: GltfNode[];
  scenes?: { nodes?: number[] }[];
  scene?: number;
}

export interface GltfOptions {
  /** Resolves buffers stored in other files; without it such a buffer is an error naming its uri. */
  loadUri?: GltfUriLoader;
  /**
   * Decodes buffer views compressed with EXT_meshopt_compression (or KHR_meshopt_compression); without
   * it such a file is refused by name. The core ships none: the page and the runner pass the decoder
   * three.js ships (three/examples/jsm/libs/meshopt_decoder.module.js), once its `ready` has resolved.
   */
  meshopt?: MeshoptGltfDecoder;
  /**
   * Decodes primitives compressed with KHR_draco_mesh_compression; without it such a file is refused by
   * name. The page and the runner pass the decoder three.js ships (dracoGltfOptions in
   * src/adapters/three/dracoDecoder.ts).
   */
  draco?: DracoGltfDecoder;
}

const DRACO_EXTENSION = 'KHR_draco_mesh_compression';

const MESHOPT_EXTENSIONS = new Set(['EXT_meshopt_compression', 'KHR_meshopt_compression']);

/**
 * Reads the triangles of a glTF 2.0 file (.gltf JSON text or .glb bytes) as one mesh in world space:
 * the default scene's node tree walked from its roots, each node's matrix or TRS applied to its mesh
 * (mirroring nodes flip the winding back), every primitive of mode triangles, strip or fan turned into
 * triangles. Points and lines are skipped and noted; Draco and meshopt compression are decoded by the
 * decoders in `options`, and refused by name without them.
 */
export function parseGltf(data: Uint8Array | string, file = 'mesh.gltf', options: GltfOptions = {}): LoadedMesh {
  try {
    return readGltf(data, file, options);
  } catch (error) {
    if (error instanceof ColliderscopeError) throw error;
    // JSON of the right syntax can still hold anything where an object or array should be; whatever
    // slipped past the checks is still the file's fault, and reported as such rather than as a crash.
    throw meshError(file, `malformed glTF (${error instanceof Error ? error.message : String(error)})`);
  }
}

function readGltf(data: Uint8Array | string, file: string, options: GltfOptions): LoadedMesh {
  let jsonText: string;
  let bin: Uint8Array | null = null;
  // A file named .glb is read as one, so a cut-off GLB is reported as such rather than as bad JSON.
  const binary = typeof data !== 'string' && (isGlb(data) || /\.glb$/i.test(file));
  if (binary) ({ json: jsonText, bin } = readGlb(data, file));
  else jsonText = typeof data === 'string' ? data : new TextDecoder().decode(data);
  const fail = (message: string, field: string): ColliderscopeError => meshError(file, message, { field });
  const raw = parseJsonText(jsonText, file);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail('a glTF document must be a JSON object', '(top level)');
  const doc = raw as GltfDocument;
  for (const key of ['extensionsRequired', 'buffers', 'bufferViews', 'accessors', 'meshes', 'materials', 'nodes', 'scenes'] as const) {
    if (doc[key] !== undefined && !Array.isArray(doc[key])) throw fail('must be an array', key);
  }
  const version = doc.asset?.version;
  if (typeof version !== 'string' || !version.startsWith('2.'))
    throw fail(`only glTF 2.0 is read, this file says ${JSON.stringify(version)}`, 'asset.version');
  for (const name of doc.extensionsRequired ?? []) {
    if (MESHOPT_EXTENSIONS.has(name) && options.meshopt !== undefined) continue;
    if (name === DRACO_EXTENSION && options.draco !== undefined) continue;
    const decoder = DECODER_EXTENSIONS[name];
    if (decoder !== undefined) {
      throw fail(
        `the file needs ${name} (${decoder} compression), which this loader does not decode; re-export it uncompressed`,
        'extensionsRequired',
      );
    }
    if (!HARMLESS_EXTENSIONS.has(name)) throw fail(`the file needs the extension ${name}, which this loader does not support`, 'extensionsRequired');
  }

  const buffers = (doc.buffers ?? []).map((buffer, i) => loadBuffer(buffer, i, i === 0 ? bin : null, file, options));
  const mesh = new MeshBuilder(file, binary ? 'glb' : 'gltf');
  const accessors = new AccessorReader(doc.accessors ?? [], doc.bufferViews ?? [], buffers, fail, options.meshopt);
  const meshes = doc.meshes ?? [];
  const materials = doc.materials ?? [];
  const nodes = doc.nodes ?? [];
  // A primitive's material by its name, or by its number when it has none (each glTF material stays its own).
  const materialName = (primitive: GltfPrimitive, path: string): string | null => {
    const index = primitive.material;
    if (index === undefined) return null;
    const material = Number.isInteger(index) ? materials[index] : undefined;
    if (material === undefined) throw fail(`names material ${index}, which does not exist`, `${path}.material`);
    return typeof material.name === 'string' && material.name !== '' ? material.name : `material ${index}`;
  };
  /** A Draco-compressed primitive's points and triangles, decoded (null: the primitive is not compressed). */
  const dracoPrimitive = (
    primitive: GltfPrimitive,
    path: string,
    decoder: DracoGltfDecoder,
  ): { positions: Float32Array; indices: Uint32Array } | null => {
    const raw = primitive.extensions?.[DRACO_EXTENSION];
    if (raw === undefined) return null;
    const field = `${path}.extensions.${DRACO_EXTENSION}`;
    if (typeof raw !== 'object' || raw === null) throw fail('must be an object', field);
    const { bufferView, attributes } = raw as { bufferView?: unknown; attributes?: Record<string, unknown> };
    if (typeof bufferView !== 'number' || !Number.isInteger(bufferView) || bufferView < 0)
      throw fail(`bufferView must be a whole number, got ${JSON.stringify(bufferView)}`, `${field}.bufferView`);
    const id = attributes?.POSITION;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0)
      throw fail(`attributes.POSITION must be the id of the compressed positions, got ${JSON.stringify(id)}`, `${field}.attributes`);
    const bytes = accessors.viewBytes(bufferView, `${field}.bufferView`);
    let decoded: { positions: Float32Array; indices: Uint32Array };
    try {
      decoded = decoder.decode(bytes, id);
    } catch (error) {
      throw fail(`the Draco data does not decode: ${error instanceof Error ? error.message : String(error)}`, field);
    }
    if (decoded.positions.length % 3 !== 0 || decoded.indices.length % 3 !== 0)
      throw fail('the Draco data decodes to a partial point or triangle', field);
    return decoded;
  };
  const skipped = new Map<string, number>();
  const note = (what: string): void => void skipped.set(what, (skipped.get(what) ?? 0) + 1);

  const addMesh = (meshIndex: number, world: Matrix4, field: string): void => {
    const source = meshes[meshIndex];
    if (source === undefined) throw fail(`names mesh ${meshIndex}, which does not exist`, field);
    const primitives = source.primitives ?? [];
    if (!Array.isArray(primitives)) throw fail('must be an array', `meshes[${meshIndex}].primitives`);
    for (let p = 0; p < primitives.length; p++) addPrimitive(primitives[p]!, `meshes[${meshIndex}].primitives[${p}]`, world);
  };

  const addPrimitive = (primitive: GltfPrimitive, path: string, world: Matrix4): void => {
    for (const name of Object.keys(primitive.extensions ?? {})) {
      if (name === DRACO_EXTENSION && options.draco !== undefined) continue;
      const decoder = DECODER_EXTENSIONS[name];
      if (decoder !== undefined)
        throw fail(`is compressed with ${name} (${decoder}), which this loader does not decode; re-export it uncompressed`, path);
    }
    const mode = primitive.mode ?? 4;
    if (mode < 4) {
      note(`${MODE_NAMES[mode] ?? `mode ${mode}`} primitives`);
      return;
    }
    if (mode > 6) throw fail(`unknown primitive mode ${mode}`, `${path}.mode`);
    const position = primitive.attributes?.POSITION;
    if (position === undefined) throw fail('a primitive without a POSITION attribute', `${path}.attributes`);
    if (primitive.targets !== undefined && primitive.targets.length > 0) note('morph targets (the base shape was used)');
    mesh.useMaterial(materialName(primitive, path), { field: `${path}.material` });
    const draco = options.draco === undefined ? null : dracoPrimitive(primitive, path, options.draco);
    const corners: ArrayLike<number> = draco?.positions ?? accessors.read(position, 'VEC3', `${path}.attributes.POSITION`);
    const positionsPath = draco === null ? `accessors[${position}]` : `${path}.extensions.${DRACO_EXTENSION}`;
    const vertexCount = corners.length / 3;
    const first = mesh.vertexCount;
    mesh.reserveVertices(vertexCount);
    for (let v = 0; v < vertexCount; v++) {
      const x = corners[3 * v]!;
      const y = corners[3 * v + 1]!;
      const z = corners[3 * v + 2]!;
      const wx = world[0]! * x + world[4]! * y + world[8]! * z + world[12]!;
      const wy = world[1]! * x + world[5]! * y + world[9]! * z + world[13]!;
      const wz = world[2]! * x + world[6]! * y + world[10]! * z + world[14]!;
      if (!Number.isFinite(x + y + z) || !Number.isFinite(wx + wy + wz)) {
        throw fail(
          `vertex ${v} (${x}, ${y}, ${z}) is not finite${Number.isFinite(x + y + z) ? ' once its node transforms are applied' : ''}`,
          positionsPath,
        );
      }
      mesh.addVertex(wx, wy, wz);
    }
    let order: ArrayLike<number>;
    let orderPath: string;
    if (draco !== null || primitive.indices !== undefined) {
      // Decoded as a triangle list, whatever the primitive's mode (the extension allows lists and strips).
      order = draco?.indices ?? accessors.read(primitive.indices!, 'SCALAR', `${path}.indices`);
      orderPath = draco !== null ? positionsPath : `accessors[${primitive.indices}]`;
      for (let i = 0; i < order.length; i++) {
        const index = order[i]!;
        if (!Number.isInteger(index) || index < 0 || index >= vertexCount) {
          throw fail(`index ${i} is ${index}, outside the primitive's ${vertexCount} vertices`, orderPath);
        }
      }
    } else {
      const identity = new Float64Array(vertexCount);
      for (let i = 0; i < vertexCount; i++) identity[i] = i;
      order = identity;
      orderPath = path;
    }
    const listMode = draco !== null ? 4 : mode;
    const mirrored = linearDeterminant(world) < 0;
    const add = (a: number, b: number, c: number): void =>
      mirrored ? mesh.addTriangle(first + a, first + c, first + b) : mesh.addTriangle(first + a, first + b, first + c);
    if (listMode === 4) {
      if (order.length % 3 !== 0) note('triangle lists whose length is not a multiple of 3 (the extra indices were ignored)');
      mesh.reserveTriangles(Math.floor(order.length / 3), { field: orderPath });
      for (let i = 0; i + 2 < order.length; i += 3) add(order[i]!, order[i + 1]!, order[i + 2]!);
    } else if (listMode === 5) {
      // Every other triangle of a strip turns the other way; swapping its first two corners keeps one winding.
      for (let i = 0; i + 2 < order.length; i++) {
        if (i % 2 === 0) add(order[i]!, order[i + 1]!, order[i + 2]!);
        else add(order[i + 1]!, order[i]!, order[i + 2]!);
      }
      note('triangle strips (converted to triangles)');
    } else {
      for (let i = 1; i + 1 < order.length; i++) add(order[0]!, order[i]!, order[i + 1]!);
      note('triangle fans (converted to triangles)');
    }
  };

  // The default scene's roots; without scenes, every node no other node names as a child; without nodes, every mesh as it is.
  let roots: number[];
  if (doc.scenes !== undefined && doc.scenes.length > 0) {
    const sceneIndex = doc.scene ?? 0;
    const scene = doc.scenes[sceneIndex];
    if (scene === undefined) throw fail(`names scene ${sceneIndex}, which does not exist`, 'scene');
    roots = scene.nodes ?? [];
    if (!Array.isArray(roots)) throw fail('must be an array', `scenes[${sceneIndex}].nodes`);
  } else if (nodes.length > 0) {
    const children = new Set(nodes.flatMap((node) => node.children ?? []));
    roots = nodes.map((_, i) => i).filter((i) => !children.has(i));
  } else {
    for (let m = 0; m < meshes.length; m++) addMesh(m, identityMatrix(), `meshes[${m}]`);
    roots = [];
  }

  const onPath = new Set<number>();
  const visit = (index: number, parent: Matrix4, field: string): void => {
    const node = nodes[index];
    if (node === undefined) throw fail(`names node ${index}, which does not exist`, field);
    if (onPath.has(index)) throw fail(`node ${index} is its own ancestor (a cycle in the node tree)`, field);
    const path = `nodes[${index}]`;
    const world = multiplyMatrices(parent, localMatrix(node, path, fail));
    if (node.mesh !== undefined) {
      if (node.skin !== undefined) note('skinned meshes (their bind pose was used)');
      addMesh(node.mesh, world, `${path}.mesh`);
    }
    if (node.children !== undefined && !Array.isArray(node.children)) throw fail('must be an array', `${path}.children`);
    onPath.add(index);
    for (const [k, childIndex] of (node.children ?? []).entries()) visit(childIndex, world, `${path}.children[${k}]`);
    onPath.delete(index);
  };
  for (const [k, root] of roots.entries()) visit(root, identityMatrix(), `scenes[${doc.scene ?? 0}].nodes[${k}]`);

  for (const [what, count] of skipped) {
    mesh.notes.push(
      what.includes('converted') || what.includes('used') || what.includes('ignored') ? `${count}× ${what}` : `skipped ${count} ${what}`,
    );
  }
  if (mesh.triangleCount === 0 && mesh.vertexCount === 0) {
    throw meshError(file, `the mesh has no triangles: the scene draws no triangle primitive${skipped.size > 0 ? ` (${mesh.notes.join('; ')})` : ''}`);
  }
  return mesh.finish();
}

function localMatrix(node: GltfNode, path: string, fail: (message: string, field: string) => ColliderscopeError): Matrix4 {
  const numbers = (value: unknown, length: number, field: string): number[] => {
    if (!Array.isArray(value) || value.length !== length || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw fail(`must be ${length} finite numbers`, `${path}.${field}`);
    }
    return value as number[];
  };
  if (node.matrix !== undefined) return new Float64Array(numbers(node.matrix, 16, 'matrix'));
  const t = node.translation === undefined ? [0, 0, 0] : numbers(node.translation, 3, 'translation');
  const r = node.rotation === undefined ? [0, 0, 0, 1] : numbers(node.rotation, 4, 'rotation');
  const s = node.scale === undefined ? [1, 1, 1] : numbers(node.scale, 3, 'scale');
  return composeTrs(t, r, s);
}

function loadBuffer(
  buffer: { uri?: string; byteLength: number; extensions?: Record<string, { fallback?: unknown } | undefined> },
  index: number,
  bin: Uint8Array | null,
  file: string,
  options: GltfOptions,
): Uint8Array {
  const field = `buffers[${index}]`;
  let bytes: Uint8Array;
  const uri = buffer.uri;
  // A meshopt file's fallback buffer holds no data: only the decoded views stand in its place.
  const extensions = buffer.extensions ?? {};
  const fallback = extensions.EXT_meshopt_compression?.fallback === true || extensions.KHR_meshopt_compression?.fallback === true;
  if (uri === undefined && fallback) return new Uint8Array(0);
  if (uri === undefined) {
    if (bin === null) throw meshError(file, 'a buffer without uri needs the GLB binary chunk, and there is none', { field });
    bytes = bin;
  } else if (uri.startsWith('data:')) {
    const comma = uri.indexOf(',');
    if (comma < 0 || !uri.slice(0, comma).endsWith(';base64'))
      throw meshError(file, 'a data: uri must be base64 (data:…;base64,…)', { field: `${field}.uri` });
    bytes = decodeBase64(uri.slice(comma + 1), file, `${field}.uri`);
  } else {
    if (options.loadUri === undefined)
      throw meshError(file, `the buffer is in another file, ${JSON.stringify(uri)}, and no loader for it was given`, { field: `${field}.uri` });
    try {
      bytes = options.loadUri(decodeURIComponent(uri));
    } catch (error) {
      throw meshError(file, `could not read ${JSON.stringify(uri)}: ${error instanceof Error ? error.message : String(error)}`, {
        field: `${field}.uri`,
      });
    }
  }
  if (!(bytes.byteLength >= buffer.byteLength)) {
    throw meshError(file, `byteLength says ${buffer.byteLength} bytes, the data has ${bytes.byteLength} (truncated)`, { field });
  }
  return bytes;
}

function decodeBase64(text: string, file: string, field: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw meshError(file, 'the data: uri is not valid base64', { field });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
