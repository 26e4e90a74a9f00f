import type { ColliderscopeError } from '../errors';
import { MAX_MESH_TRIANGLES } from './meshBuilder';

/** The one call of a meshopt decoder the reader makes (meshoptimizer's MeshoptDecoder has it). */
export interface MeshoptGltfDecoder {
  decodeGltfBuffer(target: Uint8Array, count: number, size: number, source: Uint8Array, mode: string, filter?: string): void;
}

/**
 * What the reader asks of a Draco decoder (KHR_draco_mesh_compression): one primitive's compressed
 * bytes in, its triangles' corners (three per triangle) and the attribute with the unique id
 * `positionId` as three floats per point out. Throws for bytes it cannot decode. The core ships none:
 * src/adapters/three/dracoDecoder.ts wraps the decoder three.js ships.
 */
export interface DracoGltfDecoder {
  decode(data: Uint8Array, positionId: number): { positions: Float32Array; indices: Uint32Array };
}

/** The parts of a glTF document the accessor reader needs; everything else of the JSON is left unread. */
export interface GltfAccessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: string;
  sparse?: {
    count: number;
    indices: { bufferView: number; byteOffset?: number; componentType: number };
    values: { bufferView: number; byteOffset?: number };
  };
}

export interface GltfBufferView {
  buffer: number;
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
  extensions?: Record<string, unknown>;
}

/** Three per triangle of the largest mesh a BVH indexes: no real accessor is longer; a count past it is a broken file. */
const MAX_ACCESSOR_ELEMENTS = 3 * MAX_MESH_TRIANGLES;

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** Reads accessors out of the document's buffers; fail(message, jsonPath) makes the located error to throw. */
export class AccessorReader {
  constructor(
    private readonly accessors: readonly unknown[],
    private readonly bufferViews: readonly unknown[],
    private readonly buffers: readonly Uint8Array[],
    private readonly fail: (message: string, field: string) => ColliderscopeError,
    private readonly meshopt?: MeshoptGltfDecoder,
  ) {}

  /** Buffer views decoded from meshopt data, by index: each decoded once however many accessors read it. */
  private readonly decodedViews = new Map<number, Uint8Array>();

  /**
   * The accessor's elements as numbers, `components` per element: normalized integers become [0, 1] or
   * [−1, 1] as the glTF spec maps them, other integers stay whole; sparse substitutions applied.
   */
  read(index: number, expectedType: string, field: string): Float64Array {
    const path = `accessors[${index}]`;
    const accessor = this.accessors[index] as GltfAccessor | undefined;
    if (accessor === undefined || typeof accessor !== 'object') throw this.fail(`names accessor ${index}, which does not exist`, field);
    const components = TYPE_COMPONENTS[accessor.type];
    if (accessor.type !== expectedType || components === undefined) {
      throw this.fail(`must be a ${expectedType} accessor, got ${JSON.stringify(accessor.type)}`, path);
    }
    const bytes = COMPONENT_BYTES[accessor.componentType];
    if (bytes === undefined) throw this.fail(`unknown componentType ${accessor.componentType}`, `${path}.componentType`);
    const count = accessor.count;
    if (!Number.isInteger(count) || count < 0) throw this.fail(`count must be a whole number, got ${String(count)}`, `${path}.count`);
    if (count > MAX_ACCESSOR_ELEMENTS)
      throw this.fail(`count ${count} is more than the ${MAX_ACCESSOR_ELEMENTS} elements this reader takes`, `${path}.count`);
    const values = new Float64Array(count * components);
    if (accessor.bufferView !== undefined) {
      const { view, stride } = this.view(accessor.bufferView, `${path}.bufferView`);
      const elementBytes = bytes * components;
      const step = stride === 0 ? elementBytes : stride;
      const offset = accessor.byteOffset ?? 0;
      if (!Number.isInteger(offset) || offset < 0) throw this.fail(`byteOffset must be a whole number ≥ 0`, `${path}.byteOffset`);
      const end = count === 0 ? 0 : offset + step * (count - 1) + elementBytes;
      if (end > view.byteLength) {
        throw this.fail(
          `${count} elements of ${elementBytes} bytes every ${step} from byte ${offset} need ${end} bytes, bufferView ${accessor.bufferView} has ${view.byteLength}`,
          path,
        );
      }
      readComponents(view, offset, step, count, components, accessor.componentType, accessor.normalized === true, values, 0);
    }
    if (accessor.sparse !== undefined) this.applySparse(accessor, components, values, path);
    return values;
  }

  private applySparse(accessor: GltfAccessor, components: number, values: Float64Array, path: string): void {
    const sparse = accessor.sparse!;
    const count = sparse.count;
    if (!Number.isInteger(count) || count < 0 || count > accessor.count)
      throw this.fail(`sparse count must be a whole number up to the accessor's count`, `${path}.sparse.count`);
    const indexBytes = COMPONENT_BYTES[sparse.indices.componentType];
    if (indexBytes === undefined || sparse.indices.componentType === 5126) {
      throw this.fail(`sparse indices need an unsigned integer componentType`, `${path}.sparse.indices.componentType`);
    }
    const indices = new Float64Array(count);
    const indexView = this.view(sparse.indices.bufferView, `${path}.sparse.indices.bufferView`).view;
    const indexOffset = sparse.indices.byteOffset ?? 0;
    if (indexOffset + indexBytes * count > indexView.byteLength)
      throw this.fail('sparse indices run past their bufferView', `${path}.sparse.indices`);
    readComponents(indexView, indexOffset, indexBytes, count, 1, sparse.indices.componentType, false, indices, 0);
    const substitutes = new Float64Array(count * components);
    const valueView = this.view(sparse.values.bufferView, `${path}.sparse.values.bufferView`).view;
    const valueOffset = sparse.values.byteOffset ?? 0;
    const elementBytes = COMPONENT_BYTES[accessor.componentType]! * components;
    if (valueOffset + elementBytes * count > valueView.byteLength)
      throw this.fail('sparse values run past their bufferView', `${path}.sparse.values`);
    readComponents(valueView, valueOffset, elementBytes, count, components, accessor.componentType, accessor.normalized === true, substitutes, 0);
    for (let i = 0; i < count; i++) {
      const target = indices[i]!;
      if (target >= accessor.count)
        throw this.fail(`sparse index ${target} is past the accessor's ${accessor.count} elements`, `${path}.sparse.indices`);
      for (let c = 0; c < components; c++) values[target * components + c] = substitutes[i * components + c]!;
    }
  }

  /** A buffer view's bytes (checked to lie inside its buffer; a meshopt-compressed one decoded). */
  viewBytes(index: number, field: string): Uint8Array {
    const { view } = this.view(index, field);
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }

  /** A meshopt-compressed view's bytes, decoded: every field checked first, a decoder failure named. */
  private decodeMeshopt(raw: unknown, decoder: MeshoptGltfDecoder, path: string): Uint8Array {
    if (typeof raw !== 'object' || raw === null) throw this.fail('must be an object', path);
    const c = raw as MeshoptCompression;
    const whole = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= min;
    if (!whole(c.buffer, 0)) throw this.fail('buffer must be a whole number', `${path}.buffer`);
    const offset = c.byteOffset ?? 0;
    if (!whole(offset, 0) || !whole(c.byteLength, 0)) throw this.fail('byteOffset and byteLength must be whole numbers ≥ 0', path);
    if (!whole(c.byteStride, 1) || c.byteStride > 256)
      throw this.fail(`byteStride must be a whole number from 1 to 256, got ${String(c.byteStride)}`, `${path}.byteStride`);
    if (!whole(c.count, 0) || c.count > MAX_ACCESSOR_ELEMENTS)
      throw this.fail(`count must be a whole number up to ${MAX_ACCESSOR_ELEMENTS}, got ${String(c.count)}`, `${path}.count`);
    if (!MESHOPT_MODES.has(c.mode)) throw this.fail(`mode must be ATTRIBUTES, TRIANGLES or INDICES, got ${JSON.stringify(c.mode)}`, `${path}.mode`);
    const filter = c.filter ?? 'NONE';
    if (!MESHOPT_FILTERS.has(filter)) throw this.fail(`unknown filter ${JSON.stringify(filter)}`, `${path}.filter`);
    const source = this.buffers[c.buffer];
    if (source === undefined) throw this.fail(`names buffer ${c.buffer}, which does not exist`, `${path}.buffer`);
    if (offset + c.byteLength > source.byteLength)
      throw this.fail(`bytes ${offset}…${offset + c.byteLength} lie outside buffer ${c.buffer} of ${source.byteLength} bytes (truncated?)`, path);
    const target = new Uint8Array(c.count * c.byteStride);
    try {
      decoder.decodeGltfBuffer(target, c.count, c.byteStride, source.subarray(offset, offset + c.byteLength), c.mode, filter);
    } catch (error) {
      throw this.fail(`the meshopt data does not decode: ${error instanceof Error ? error.message : String(error)}`, path);
    }
    return target;
  }

  /** The bytes of a buffer view (checked to lie inside its buffer) and its stride (0 when tightly packed). */
  private view(index: number, field: string): { view: DataView; stride: number } {
    const bufferView = this.bufferViews[index] as GltfBufferView | undefined;
    if (bufferView === undefined || typeof bufferView !== 'object') throw this.fail(`names bufferView ${index}, which does not exist`, field);
    const path = `bufferViews[${index}]`;
    for (const [name, compression] of Object.entries(bufferView.extensions ?? {})) {
      if (name !== 'EXT_meshopt_compression' && name !== 'KHR_meshopt_compression') continue;
      if (this.meshopt === undefined)
        throw this.fail(`is compressed with ${name}, and no meshopt decoder was given (re-export the file without meshopt compression)`, path);
      const stride = bufferView.byteStride ?? 0;
      if (!Number.isInteger(stride) || stride < 0) throw this.fail('byteStride must be a whole number', `${path}.byteStride`);
      let decoded = this.decodedViews.get(index);
      if (decoded === undefined) {
        decoded = this.decodeMeshopt(compression, this.meshopt, `${path}.extensions.${name}`);
        this.decodedViews.set(index, decoded);
      }
      return { view: new DataView(decoded.buffer, decoded.byteOffset, decoded.byteLength), stride };
    }
    const buffer = this.buffers[bufferView.buffer];
    if (buffer === undefined) throw this.fail(`names buffer ${bufferView.buffer}, which does not exist`, `${path}.buffer`);
    const offset = bufferView.byteOffset ?? 0;
    const length = bufferView.byteLength;
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > buffer.byteLength) {
      throw this.fail(`bytes ${offset}…${offset + length} lie outside buffer ${bufferView.buffer} of ${buffer.byteLength} bytes (truncated?)`, path);
    }
    const stride = bufferView.byteStride ?? 0;
    if (!Number.isInteger(stride) || stride < 0) throw this.fail('byteStride must be a whole number', `${path}.byteStride`);
    return { view: new DataView(buffer.buffer, buffer.byteOffset + offset, length), stride };
  }
}

const MESHOPT_MODES = new Set(['ATTRIBUTES', 'TRIANGLES', 'INDICES']);
const MESHOPT_FILTERS = new Set(['NONE', 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL', 'COLOR']);

interface MeshoptCompression {
  buffer: number;
  byteOffset?: number;
  byteLength: number;
  byteStride: number;
  count: number;
  mode: string;
  filter?: string;
}

function readComponents(
  view: DataView,
  offset: number,
  step: number,
  count: number,
  components: number,
  componentType: number,
  normalized: boolean,
  out: Float64Array,
  outStart: number,
): void {
  const bytes = COMPONENT_BYTES[componentType]!;
  for (let i = 0; i < count; i++) {
    const element = offset + i * step;
    for (let c = 0; c < components; c++) {
      const at = element + c * bytes;
      let value: number;
      switch (componentType) {
        case 5120:
          value = view.getInt8(at);
          if (normalized) value = Math.max(value / 127, -1);
          break;
        case 5121:
          value = view.getUint8(at);
          if (normalized) value /= 255;
          break;
        case 5122:
          value = view.getInt16(at, true);
          if (normalized) value = Math.max(value / 32767, -1);
          break;
        case 5123:
          value = view.getUint16(at, true);
          if (normalized) value /= 65535;
          break;
        case 5125:
          value = view.getUint32(at, true);
          break;
        default:
          value = view.getFloat32(at, true);
      }
      out[outStart + i * components + c] = value;
    }
  }
}
