/**
 * The three.js adapter in a page: a 240,000-triangle torus knot, a BVH from computeBoundsTree, and
 * Mesh.raycast replaced by acceleratedRaycast. Hovering highlights the face under the pointer and shows
 * what one Raycaster.intersectObject call cost. The adapter part is the block marked below.
 */
import * as THREE from 'three';
import { acceleratedRaycast, computeBoundsTree, loadRaycastKernel, raycastKernelUnavailableReason } from '../src/adapters/three/index';

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.1, 100);
camera.position.set(0, 0, 4.2);
scene.add(new THREE.HemisphereLight(0xffffff, 0x334455, 2.5));
const status = document.getElementById('status')!;

// ---- the adapter: a tree for the geometry, the accelerated raycast for the mesh ----
const geometry = new THREE.TorusKnotGeometry(1, 0.35, 2000, 60);
const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0x6f8fb0, flatShading: true }));
const buildStart = performance.now();
computeBoundsTree.call(geometry); // or: THREE.BufferGeometry.prototype.computeBoundsTree = computeBoundsTree
const buildMs = performance.now() - buildStart;
mesh.raycast = acceleratedRaycast; // or: THREE.Mesh.prototype.raycast = acceleratedRaycast
scene.add(mesh);
const simd = (await loadRaycastKernel()) !== null;
const raycaster = new THREE.Raycaster();
raycaster.firstHitOnly = true;
const pointer = new THREE.Vector2();
const TIMED_REPEATS = 200;
renderer.domElement.addEventListener('pointermove', (event) => {
  pointer.set((event.clientX / innerWidth) * 2 - 1, -(event.clientY / innerHeight) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  const start = performance.now();
  const [hit] = raycaster.intersectObject(mesh);
  // Browsers round performance.now() to tens of microseconds: the same ray again, timed as a run.
  for (let i = 1; i < TIMED_REPEATS; i++) raycaster.intersectObject(mesh);
  showHit(hit, (performance.now() - start) / TIMED_REPEATS);
});
// ---- end of the adapter part ----

// The hovered face, drawn over the mesh in its local space.
const facePositions = new Float32Array(9);
const faceGeometry = new THREE.BufferGeometry();
faceGeometry.setAttribute('position', new THREE.BufferAttribute(facePositions, 3));
const face = new THREE.Mesh(faceGeometry, new THREE.MeshBasicMaterial({ color: 0xff3b30, side: THREE.DoubleSide, depthTest: false }));
face.visible = false;
mesh.add(face);
// Faces are small on a mesh this fine: a dot marks the hit point too.
const marker = new THREE.Mesh(new THREE.SphereGeometry(0.025, 12, 8), new THREE.MeshBasicMaterial({ color: 0xff3b30 }));
marker.visible = false;
scene.add(marker);
const triangles = geometry.index!.count / 3;
const kernelName = simd ? 'WebAssembly SIMD' : `TypeScript (${raycastKernelUnavailableReason()})`;
status.textContent = `${triangles.toLocaleString('en')} triangles, BVH built in ${buildMs.toFixed(0)} ms, ${kernelName}: hover the knot`;
status.dataset.ready = '1';
let hits = 0;

function showHit(hit: THREE.Intersection | undefined, ms: number): void {
  face.visible = marker.visible = hit?.face != null;
  if (hit?.face == null) {
    status.textContent = `miss · ${ms.toFixed(3)} ms per raycast (mean of ${TIMED_REPEATS}) · ${kernelName}`;
    return;
  }
  const position = geometry.getAttribute('position');
  [hit.face.a, hit.face.b, hit.face.c].forEach((vertex, corner) =>
    facePositions.set([position.getX(vertex), position.getY(vertex), position.getZ(vertex)], 3 * corner),
  );
  faceGeometry.getAttribute('position').needsUpdate = true;
  marker.position.copy(hit.point);
  status.textContent = `face ${hit.faceIndex} at distance ${hit.distance.toFixed(3)} · ${ms.toFixed(3)} ms per raycast (mean of ${TIMED_REPEATS}) · ${kernelName}`;
  status.dataset.hits = String(++hits);
}

addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
renderer.setAnimationLoop(() => {
  mesh.rotation.y += 0.002;
  renderer.render(scene, camera);
});
