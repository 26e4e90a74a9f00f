/// <reference lib="webworker" />
import {
  buildBVH,
  generateTerrain,
  loadSimdRays,
  loadWasmBuilder,
  loadWasmHeights,
  loadWasmRefit,
  meshTerrain,
  prepareRefit,
  terrainMaterialInput,
  type BVH,
  type BVHBuilderName,
  type GltfOptions,
  type RefitState,
  type TerrainMesh,
  type TerrainParams,
} from '../core';
import { readPageMesh, PAGE_MAX_MESH_TRIANGLES } from './pageMesh';
import { meshoptGltfOptions } from '../adapters/three/meshoptDecoder';
import { dracoGltfOptions } from '../adapters/three/dracoDecoder';
import dracoWrapper from 'three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js?raw';
import dracoWasmUrl from 'three/examples/jsm/libs/draco/gltf/draco_decoder.wasm?url';

/**
 * Builds terrain and then its BVH off the main thread, so a 2M-triangle mesh never freezes the page.
 * The terrain is posted as soon as it exists (copied: the worker still needs it for the BVH); the BVH
 * follows with copies of its node buffers transferred and without the mesh arrays, which the page
 * already has; then the refit's bookkeeping over it (prepareRefit), so the page's first crater refits
 * only what moved. A rebuild over an edited mesh sends the bookkeeping with the tree: the page refits
 * it at once to the terrain as it is by then.
 */
export interface TerrainRequest {
  id: number;
  params: TerrainParams;
  /** A mesh to build the BVH over instead of generating the terrain (a rebuild after edits): copies, the worker keeps them. */
  mesh?: { positions: Float32Array; indices: Uint32Array; materials: Uint8Array };
  /** Which BVH builder runs (default 'typescript'; the page asks for TERRAIN_BUILDER); 'wasm' loads the
   *  module in this worker first and falls back to TypeScript where it cannot load (bvh.stats.builderFallback says why). */
  builder?: BVHBuilderName;
  /** A mesh file to read and place as the terrain (its bytes, transferred) instead of generating one. */
  meshFile?: MeshFileRequest;
}

/** A mesh file the worker parses, places (meshTerrain) and builds the BVH over with the WebAssembly builder. */
export interface MeshFileRequest {
  name: string;
  bytes: Uint8Array;
  scale: number;
  cells: number;
}

export type TerrainWorkerMessage =
  | { id: number; kind: 'progress'; fraction: number; stage: string }
  | { id: number; kind: 'terrain'; mesh: TerrainMesh }
  | { id: number; kind: 'bvh'; bvh: BVH; refitState: RefitState | null }
  | { id: number; kind: 'refit-state'; refitState: RefitState }
  | { id: number; kind: 'error'; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

/**
 * The first terrains after the page loads run the generation and the grid build cold: about three times
 * the steady cost of a seed-slider step, for the first three or four steps. So once the first terrain is
 * out, the worker builds small terrains of the same kind while it has nothing else to do, one per task
 * (a request that arrives waits for one small build at most), until the code is optimised.
 */
const WARM_UP_BUILDS = 30;
const WARM_UP_CELLS = 48;
let warmUpBuildsLeft = WARM_UP_BUILDS;
let requestsRunning = 0;

function warmUpLater(params: TerrainParams, builder: BVHBuilderName): void {
  if (warmUpBuildsLeft > 0) setTimeout(() => warmUpOnce(params, builder), 0);
}

function warmUpOnce(params: TerrainParams, builder: BVHBuilderName): void {
  // A request under way (or waiting for a module) goes first; it schedules the rest when done.
  if (requestsRunning > 0 || warmUpBuildsLeft <= 0) return;
  warmUpBuildsLeft--;
  const terrain = generateTerrain({ ...params, cells: WARM_UP_CELLS, seed: (params.seed + 1 + warmUpBuildsLeft) >>> 0 });
  const bvh = buildBVH(terrain.positions, terrain.indices, { builder }, terrainMaterialInput(terrain));
  prepareRefitOrNull(bvh);
  warmUpLater(params, builder);
}

scope.onmessage = async (event: MessageEvent<TerrainRequest>) => {
  const { id, params, builder = 'typescript', mesh: given, meshFile } = event.data;
  const post = (message: TerrainWorkerMessage, transfer: Transferable[] = []): void => scope.postMessage(message, transfer);
  requestsRunning++;
  try {
    if (meshFile !== undefined) {
      await buildMeshTerrain(id, meshFile, post);
      return;
    }
    let mesh: { positions: Float32Array; indices: Uint32Array; materials: Uint8Array };
    if (given !== undefined) mesh = given;
    else {
      // Same heights either way; the module only spares the first terrains the TypeScript loop's JIT warm-up.
      await loadWasmHeights();
      let lastPosted = -1;
      const terrain = generateTerrain(params, (fraction, stage) => {
        // Posting every row would flood the channel; whole percents are plenty for a progress bar.
        const percent = Math.floor(fraction * 100);
        if (percent === lastPosted) return;
        lastPosted = percent;
        post({ id, kind: 'progress', fraction, stage });
      });
      post({ id, kind: 'terrain', mesh: terrain });
      post({ id, kind: 'progress', fraction: -1, stage: `BVH over ${terrain.triangleCount.toLocaleString('en')} triangles` });
      mesh = terrain;
    }
    await Promise.all([builder === 'wasm' ? loadWasmBuilder() : null, loadWasmRefit()]);
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder }, terrainMaterialInput(mesh));
    // Copies travel (transferred): the worker keeps the tree to prepare the refit over it.
    const { posted, transfer } = postableTree(bvh);
    if (given !== undefined) {
      const refitState = prepareRefitOrNull(bvh);
      post({ id, kind: 'bvh', bvh: posted, refitState }, [...transfer, ...(refitState === null ? [] : refitStateBuffers(refitState))]);
    } else {
      post({ id, kind: 'bvh', bvh: posted, refitState: null }, transfer);
      const refitState = prepareRefitOrNull(bvh);
      if (refitState !== null) post({ id, kind: 'refit-state', refitState }, refitStateBuffers(refitState));
      // Scheduled now, run once this request is over (finally).
      warmUpLater(params, builder);
    }
  } catch (error) {
    post({ id, kind: 'error', message: error instanceof Error ? error.message : String(error) });
  } finally {
    requestsRunning--;
  }
};

/**
 * A mesh file as the terrain: parsed, checked against the page's limit, placed and its BVH built by the
 * WebAssembly builder (as the headless runner does, so both name the same triangles). meshTerrain needs the
 * tree to find the top surface, so terrain and tree are posted together; nothing edits a mesh, so no refit
 * bookkeeping follows.
 */
async function buildMeshTerrain(
  id: number,
  request: MeshFileRequest,
  post: (message: TerrainWorkerMessage, transfer?: Transferable[]) => void,
): Promise<void> {
  post({ id, kind: 'progress', fraction: 0.05, stage: `Reading ${request.name}` });
  const [meshopt, draco] = await Promise.all([meshoptGltfOptions(), workerDracoOptions(), loadWasmBuilder(), loadSimdRays()]);
  const mesh = readPageMesh(request.name, request.bytes, PAGE_MAX_MESH_TRIANGLES, { ...meshopt, ...draco });
  post({ id, kind: 'progress', fraction: -1, stage: `BVH over ${mesh.triangleCount.toLocaleString('en')} triangles` });
  const { terrain, bvh } = meshTerrain(mesh, { scale: request.scale, cells: request.cells, builder: 'wasm' });
  terrain.source = request.name;
  // The terrain travels by copy, the tree's buffers by transfer: the page re-links the tree to its copy of the mesh.
  post({ id, kind: 'terrain', mesh: terrain });
  const { posted, transfer } = postableTree(bvh);
  post({ id, kind: 'bvh', bvh: posted, refitState: null }, transfer);
}

let dracoOptions: Promise<Partial<Pick<GltfOptions, 'draco'>>> | null = null;

/**
 * The Draco decoder three ships, bundled with this worker (its wasm served beside the page), loaded at
 * the first mesh file. Should it not load, Draco files are refused by name and every other file reads.
 */
function workerDracoOptions(): Promise<Partial<Pick<GltfOptions, 'draco'>>> {
  dracoOptions ??= fetch(dracoWasmUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`${dracoWasmUrl}: HTTP ${response.status}`);
      return response.arrayBuffer();
    })
    .then((wasm): Promise<Partial<Pick<GltfOptions, 'draco'>>> => dracoGltfOptions(dracoWrapper, new Uint8Array(wasm)))
    .catch((error: unknown) => {
      console.warn(
        `The Draco decoder did not load (${error instanceof Error ? error.message : String(error)}): Draco-compressed glTF files will be refused.`,
      );
      return {};
    });
  return dracoOptions;
}

/** The tree without the mesh arrays (the page has them), over copies of its node buffers and the buffers to transfer. */
function postableTree(bvh: BVH): { posted: BVH; transfer: Transferable[] } {
  const quantizedBuffer = bvh.quantized?.buffer.slice(0) ?? null;
  const floatBuffer = bvh.float?.buffer.slice(0) ?? null;
  const triangleOrder = bvh.triangleOrder?.slice() ?? null;
  const posted: BVH = {
    ...bvh,
    positions: new Float32Array(0),
    indices: new Uint32Array(0),
    quantized:
      bvh.quantized === null || quantizedBuffer === null
        ? null
        : { ...bvh.quantized, buffer: quantizedBuffer, u16: new Uint16Array(quantizedBuffer), u32: new Uint32Array(quantizedBuffer) },
    float:
      bvh.float === null || floatBuffer === null
        ? null
        : { ...bvh.float, buffer: floatBuffer, f32: new Float32Array(floatBuffer), u32: new Uint32Array(floatBuffer) },
    triangleOrder,
  };
  const transfer: Transferable[] = [quantizedBuffer, floatBuffer, triangleOrder?.buffer ?? null].filter((buffer) => buffer !== null);
  return { posted, transfer };
}

/** The refit's bookkeeping, or null where it cannot be made (the page then makes it on the first edit). */
function prepareRefitOrNull(bvh: BVH): RefitState | null {
  if (bvh.quantized === null) return null;
  try {
    return prepareRefit(bvh);
  } catch {
    return null;
  }
}

function refitStateBuffers(state: RefitState): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const value of Object.values(state) as unknown[])
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  return [...buffers];
}
