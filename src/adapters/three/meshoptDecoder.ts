import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import type { GltfOptions } from '../../meshes/gltf';

/**
 * The meshopt decoder three.js ships (EXT_meshopt_compression, KHR_meshopt_compression), ready for the
 * core's glTF reader: the page's terrain worker and the headless tools pass it to loadMesh, so a
 * meshopt-compressed level opens in both with no file from the network.
 */
export async function meshoptGltfOptions(): Promise<Pick<GltfOptions, 'meshopt'>> {
  await MeshoptDecoder.ready;
  return { meshopt: MeshoptDecoder };
}
