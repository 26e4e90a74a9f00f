/** The Draco decoder three.js ships, read from node_modules for the headless tools and tests. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dracoGltfOptions } from '../src/adapters/three/dracoDecoder';
import type { GltfOptions } from '../src/meshes/gltf';

const resolveFile = createRequire(import.meta.url).resolve;

/** The reader's Draco option, from three's draco_wasm_wrapper.js and draco_decoder.wasm (no network). */
export function nodeDracoGltfOptions(): Promise<Pick<GltfOptions, 'draco'>> {
  const wrapper = readFileSync(resolveFile('three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js'), 'utf8');
  const wasm = readFileSync(resolveFile('three/examples/jsm/libs/draco/gltf/draco_decoder.wasm'));
  return dracoGltfOptions(wrapper, wasm);
}
