/**
 * The three.js adapter held to three-mesh-bvh's raycast tests (its test/RandomRaycasts.test.js,
 * test/repro/RaycastsRepro.test.js, test/repro/Multimaterial.test.js and test/ExtensionUtilities.test.js):
 * the same scenes, the same random generator and seeds, the same assertions — every hit of an
 * accelerated raycast deep-equal to three's own Mesh.raycast, and the firstHitOnly hit equal to three's
 * closest — with our acceleratedRaycast in place of theirs. Written afresh; where our behaviour differs
 * from theirs on purpose, the test says so (and the README lists it).
 */
import {
  BackSide,
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  FrontSide,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  type Material,
  Mesh,
  MeshBasicMaterial,
  Object3D,
  Raycaster,
  Scene,
  SphereGeometry,
  TorusGeometry,
  Vector3,
  type Intersection,
  type Side,
} from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceleratedRaycast, boundsTreeOf, computeBoundsTree, disposeBoundsTree, loadRaycastKernel } from '../../../src/adapters/three/index';
import type { ColliderscopeBoundsTree } from '../../../src/adapters/three/boundsTree';

// eslint-disable-next-line @typescript-eslint/unbound-method
const threeRaycast = Mesh.prototype.raycast;

/** three-mesh-bvh's test generator: a linear congruential sequence (its modulus is 2e31, as written there). */
class PeerRandom {
  constructor(private seed: number) {
    this.next(); // their tests draw once to grow a small seed
  }
  next(): number {
    this.seed = (1103515245 * this.seed + 12345) % 2e31;
    return this.seed / 2e31;
  }
}

interface WithTree {
  boundsTree?: unknown;
}
const setTree = (geometry: BufferGeometry, tree: ColliderscopeBoundsTree | null): void => {
  (geometry as unknown as WithTree).boundsTree = tree;
};
const build = (geometry: BufferGeometry): ColliderscopeBoundsTree => computeBoundsTree.call(geometry);

/** Positions moved into a buffer of stride 6, as their interleaved case does. */
function interleavedPositions(geometry: BufferGeometry): InterleavedBufferAttribute {
  const source = geometry.getAttribute('position');
  const attribute = new InterleavedBufferAttribute(new InterleavedBuffer(new Float32Array(6 * source.count), 6), 3, 3, false);
  for (let v = 0; v < source.count; v++) attribute.setXYZ(v, source.getX(v), source.getY(v), source.getZ(v));
  return attribute;
}

function randomTransform(target: Object3D, random: PeerRandom): void {
  target.rotation.set(random.next() * 10, random.next() * 10, random.next() * 10);
  target.position.set(random.next(), random.next(), random.next());
  // Non-uniform and possibly mirrored scales, as theirs.
  target.scale.set(random.next() * 2 - 1, random.next() * 2 - 1, random.next() * 2 - 1);
  target.updateMatrixWorld(true);
}

interface Scenario {
  interleaved: boolean;
  near: number | undefined;
  far: number | undefined;
}

/** Ten meshes alternating a plain torus and one split into ten groups (a single material: three ignores the groups). */
function torusScene(scenario: Scenario, transformSeed: number) {
  const plain = new TorusGeometry(1, 1, 40, 10);
  const grouped = new TorusGeometry(1, 1, 40, 10);
  if (scenario.interleaved) {
    plain.setAttribute('position', interleavedPositions(plain));
    grouped.setAttribute('position', interleavedPositions(grouped));
  }
  const groupSize = grouped.index!.count / 10;
  for (let g = 0; g < 10; g++) grouped.addGroup(g * groupSize, groupSize, 0);
  const trees = [build(plain), build(grouped)] as const;
  const scene = new Scene();
  const random = new PeerRandom(transformSeed);
  for (let i = 0; i < 10; i++) {
    const mesh = new Mesh(i % 2 ? grouped : plain, new MeshBasicMaterial());
    mesh.raycast = acceleratedRaycast;
    randomTransform(mesh, random);
    scene.add(mesh);
  }
  const raycaster = new Raycaster();
  if (scenario.near !== undefined) raycaster.near = scenario.near;
  if (scenario.far !== undefined) raycaster.far = scenario.far;
  const useTrees = (on: boolean): void => {
    setTree(plain, on ? trees[0] : null);
    setTree(grouped, on ? trees[1] : null);
  };
  return { scene, raycaster, useTrees };
}

/** Their assertion per ray: all hits deep-equal three's, and the firstHitOnly hit equal to three's first. */
function castBothWays(
  context: ReturnType<typeof torusScene>,
  raySeed: number,
): { accelerated: Intersection[]; first: Intersection[]; three: Intersection[] } {
  const { scene, raycaster, useTrees } = context;
  const random = new PeerRandom(raySeed);
  raycaster.ray.origin.set(random.next() * 10, random.next() * 10, random.next() * 10);
  raycaster.ray.direction.copy(raycaster.ray.origin).multiplyScalar(-1).normalize();
  useTrees(true);
  raycaster.firstHitOnly = false;
  const accelerated = raycaster.intersectObject(scene, true);
  raycaster.firstHitOnly = true;
  const first = raycaster.intersectObject(scene, true);
  raycaster.firstHitOnly = false;
  useTrees(false); // no tree: acceleratedRaycast runs three's own
  const three = raycaster.intersectObject(scene, true);
  return { accelerated, first, three };
}

// The SIMD kernel serves the closest-hit casts, so the suite checks it, not only the TypeScript walk.
beforeAll(async () => {
  expect(await loadRaycastKernel()).not.toBeNull();
});

describe('three.js adapter against three-mesh-bvh random raycasts', () => {
  // Their matrix (interleaved × near × far; BatchedMesh is outside the adapter), with fixed seeds
  // where theirs draws new ones per run.
  const scenarios: Scenario[] = [];
  for (const interleaved of [true, false])
    for (const near of [undefined, 6]) for (const far of [undefined, 7]) scenarios.push({ interleaved, near, far });
  scenarios.forEach((scenario, s) => {
    const transformSeed = 1_000_003 * (s + 1);
    it(`matches three on 100 rays: interleaved ${scenario.interleaved}, near ${scenario.near}, far ${scenario.far}`, () => {
      const context = torusScene(scenario, transformSeed);
      let hitsSeen = 0;
      for (let i = 0; i < 100; i++) {
        const raySeed = 7_919 * (i + 1) + s;
        const { accelerated, first, three } = castBothWays(context, raySeed);
        expect(accelerated, `ray seed ${raySeed}`).toEqual(three);
        expect(first[0], `ray seed ${raySeed}`).toEqual(three[0]);
        hitsSeen += three.length;
      }
      // The scenes are hit (a suite of misses would prove nothing).
      expect(hitsSeen).toBeGreaterThan(scenario.far === undefined ? 200 : 0);
    });
  });

  // Their reproduction seeds (issue #180 of three-mesh-bvh), with their rotation-and-offset transforms.
  for (const [transformSeed, raySeed] of [
    [7830035629, 4697211981],
    [8294928772, 1592666709],
    [81992501, 8903271423],
  ] as const) {
    it(`matches three on the reproduction seeds ${transformSeed} / ${raySeed}`, () => {
      const context = torusScene({ interleaved: false, near: undefined, far: undefined }, transformSeed);
      const random = new PeerRandom(transformSeed);
      for (const mesh of context.scene.children) {
        mesh.rotation.set(random.next() * 10, random.next() * 10, random.next() * 10);
        mesh.position.set(random.next(), random.next(), random.next());
        mesh.scale.set(1, 1, 1);
        mesh.updateMatrixWorld(true);
      }
      const { accelerated, first, three } = castBothWays(context, raySeed);
      expect(accelerated).toEqual(three);
      expect(first[0]).toEqual(three[0]);
    });
  }
});

describe('three.js adapter against three-mesh-bvh multi-material cases', () => {
  function sphereCase(setUp: (mesh: Mesh) => void): { accelerated: Intersection[]; three: Intersection[]; first: Intersection[] } {
    const mesh = new Mesh(new SphereGeometry(1, 40, 40));
    setUp(mesh);
    const raycaster = new Raycaster();
    raycaster.ray.origin.set(0, 0, -10);
    raycaster.ray.direction.set(0, 0, 1);
    const three = raycaster.intersectObject(mesh);
    build(mesh.geometry);
    mesh.raycast = acceleratedRaycast;
    const accelerated = raycaster.intersectObject(mesh);
    raycaster.firstHitOnly = true;
    const first = raycaster.intersectObject(mesh);
    return { accelerated, three, first };
  }
  const half = (mesh: Mesh): number => mesh.geometry.index!.count / 2;
  const cases: [string, (mesh: Mesh) => void][] = [
    ['an empty material array', (mesh) => (mesh.material = [])],
    ['a material array and no groups', (mesh) => (mesh.material = [new MeshBasicMaterial(), new MeshBasicMaterial()])],
    [
      'one material and groups',
      (mesh) => {
        mesh.geometry.addGroup(0, half(mesh), 0);
        mesh.geometry.addGroup(half(mesh), half(mesh), 0);
      },
    ],
    [
      'a material array and groups',
      (mesh) => {
        mesh.geometry.addGroup(0, half(mesh), 0);
        mesh.geometry.addGroup(half(mesh), half(mesh), 1);
        mesh.material = [new MeshBasicMaterial(), new MeshBasicMaterial()];
      },
    ],
    [
      'a material array and overlapping groups',
      (mesh) => {
        mesh.geometry.addGroup(0, 2 * half(mesh), 0);
        mesh.geometry.addGroup(0, 2 * half(mesh), 1);
        mesh.material = [new MeshBasicMaterial(), new MeshBasicMaterial()];
      },
    ],
    [
      'a group of count Infinity',
      (mesh) => {
        mesh.geometry.addGroup(0, Infinity, 1);
        mesh.material = [new MeshBasicMaterial(), new MeshBasicMaterial({ side: DoubleSide })];
      },
    ],
  ];
  for (const [name, setUp] of cases) {
    it(`matches three with ${name}`, () => {
      const { accelerated, three, first } = sphereCase(setUp);
      expect(accelerated).toEqual(three);
      expect(first[0]).toEqual(three[0]);
    });
  }
});

describe('three.js adapter: what three-mesh-bvh does not test', () => {
  /** Seeded rays from a box of origins towards random points near the mesh: all hits and the first equal three's. */
  function expectSameAsThree(mesh: Mesh, rays = 60, seed = 12345): number {
    const random = new PeerRandom(seed);
    const raycaster = new Raycaster();
    let total = 0;
    for (let i = 0; i < rays; i++) {
      raycaster.ray.origin.set(random.next() * 8 - 4, random.next() * 8 - 4, random.next() * 8 - 4);
      const target = new Vector3(random.next() * 3 - 1.5, random.next() * 3 - 1.5, random.next() * 3 - 1.5);
      raycaster.ray.direction.copy(target).sub(raycaster.ray.origin).normalize();
      raycaster.firstHitOnly = false;
      mesh.raycast = threeRaycast;
      const three = raycaster.intersectObject(mesh);
      mesh.raycast = acceleratedRaycast;
      const accelerated = raycaster.intersectObject(mesh);
      raycaster.firstHitOnly = true;
      const first = raycaster.intersectObject(mesh);
      expect(accelerated, `ray ${i}`).toEqual(three);
      expect(first[0], `ray ${i}`).toEqual(three[0]);
      total += three.length;
    }
    return total;
  }

  for (const side of [FrontSide, BackSide, DoubleSide] as Side[]) {
    it(`honours the material's side ${side}`, () => {
      const mesh = new Mesh(new TorusGeometry(1.5, 0.6, 24, 48), new MeshBasicMaterial({ side }));
      mesh.rotation.set(0.3, 1.1, -0.4);
      mesh.updateMatrixWorld(true);
      build(mesh.geometry);
      expect(expectSameAsThree(mesh)).toBeGreaterThan(20);
    });
  }

  it('honours the draw range, with and without groups, at raycast time (three-mesh-bvh bakes it in at build)', () => {
    const geometry = new TorusGeometry(1.5, 0.6, 24, 48);
    build(geometry);
    const mesh = new Mesh<BufferGeometry, Material | Material[]>(geometry, new MeshBasicMaterial({ side: DoubleSide }));
    geometry.setDrawRange(300, 2400);
    expect(expectSameAsThree(mesh)).toBeGreaterThan(10);
    geometry.addGroup(150, 1200, 0);
    geometry.addGroup(1350, 1500, 1);
    mesh.material = [new MeshBasicMaterial({ side: BackSide }), new MeshBasicMaterial({ side: FrontSide })];
    expect(expectSameAsThree(mesh, 60, 999)).toBeGreaterThan(10);
  });

  it('answers non-indexed geometry with uv, uv1 and normals, under a mirrored non-uniform scale', () => {
    const geometry = new TorusGeometry(1.5, 0.6, 24, 48).toNonIndexed();
    geometry.setAttribute('uv1', geometry.getAttribute('uv').clone());
    build(geometry);
    const mesh = new Mesh(geometry, new MeshBasicMaterial());
    mesh.scale.set(1.3, -0.7, 0.9);
    mesh.position.set(0.2, -0.1, 0.3);
    mesh.updateMatrixWorld(true);
    expect(expectSameAsThree(mesh)).toBeGreaterThan(10);
    mesh.raycast = acceleratedRaycast;
    const raycaster = new Raycaster();
    raycaster.ray.origin.set(0.2 + 1.3 * 1.5, -0.1, 5); // over the middle of the tube
    raycaster.ray.direction.set(0, 0.02, -1).normalize();
    const [hit] = raycaster.intersectObject(mesh);
    expect(hit?.uv1).toBeDefined();
    expect(hit?.barycoord).toBeDefined();
  });

  it('falls back to three for morph targets, and for a mesh without a tree', () => {
    const geometry = new SphereGeometry(1, 16, 12);
    const moved = geometry.getAttribute('position').clone();
    for (let v = 0; v < moved.count; v++) moved.setX(v, moved.getX(v) + 3);
    geometry.morphAttributes.position = [moved];
    build(geometry);
    const mesh = new Mesh(geometry, new MeshBasicMaterial());
    mesh.updateMorphTargets();
    mesh.morphTargetInfluences![0] = 1;
    const raycaster = new Raycaster();
    raycaster.ray.origin.set(3, 0, -10);
    raycaster.ray.direction.set(0, 0, 1);
    mesh.raycast = acceleratedRaycast;
    const hits = raycaster.intersectObject(mesh);
    expect(hits.length).toBe(2); // the morphed sphere, where the tree's rest pose is not
    disposeBoundsTree.call(geometry);
    expect(boundsTreeOf(geometry)).toBeNull();
    geometry.morphAttributes = {};
    const plain = new Mesh(geometry, new MeshBasicMaterial());
    plain.raycast = acceleratedRaycast;
    raycaster.ray.origin.set(0, 0, -10);
    expect(raycaster.intersectObject(plain)).toEqual(((plain.raycast = threeRaycast), raycaster.intersectObject(plain)));
  });

  it('is resilient to a custom type field and an empty geometry (their extension test)', () => {
    const mesh = new Mesh();
    mesh.raycast = acceleratedRaycast;
    (mesh as { type: string }).type = 'CUSTOM_MESH';
    expect(() => new Raycaster().intersectObject(mesh)).not.toThrow();
    const empty = new BufferGeometry();
    empty.setAttribute('position', new BufferAttribute(new Float32Array(0), 3));
    build(empty);
    expect(new Raycaster().intersectObject(new Mesh(empty, new MeshBasicMaterial()))).toEqual([]);
  });
});
