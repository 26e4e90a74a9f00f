import * as THREE from 'three';
import type { Legend } from './legend';

/** Speed → colour: calm blue through green and yellow to red at `maxSpeed` and beyond. */
export function speedColour(speed: number, maxSpeed: number, out: THREE.Color): THREE.Color {
  const t = Math.min(speed / maxSpeed, 1);
  return out.setHSL(0.66 * (1 - t), 0.9, 0.5);
}

/** The key of the arrows' speed colours up to `maxSpeed` (m/s). */
export function windSpeedLegend(maxSpeed: number): Legend {
  const colour = new THREE.Color();
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => speedColour(t * maxSpeed, maxSpeed, colour).getStyle());
  return { title: 'wind speed (arrow heads)', gradient: { stops, min: '0 m/s', max: `≥ ${maxSpeed} m/s` } };
}

/**
 * Wind arrows on a grid of sample points: each arrow is a segment from the point along the wind,
 * dark at the tail and coloured by speed at the head. Buffers are made once per grid size.
 */
export class WindArrows {
  readonly lines: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly geometry = new THREE.BufferGeometry();
  private positions = new Float32Array(0);
  private colours = new Float32Array(0);
  private readonly colour = new THREE.Color();

  constructor() {
    this.lines = new THREE.LineSegments(this.geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
    this.lines.frustumCulled = false;
    this.lines.name = 'wind-arrows';
  }

  /** `points` and `wind` are float4 per sample. */
  update(points: Float32Array, wind: Float32Array, count: number, secondsOfTravel: number, maxSpeed: number): void {
    if (this.positions.length !== count * 6) {
      this.positions = new Float32Array(count * 6);
      this.colours = new Float32Array(count * 6);
      this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
      this.geometry.setAttribute('color', new THREE.BufferAttribute(this.colours, 3));
    }
    const p = this.positions;
    const c = this.colours;
    const colour = this.colour;
    for (let i = 0; i < count; i++) {
      const wx = wind[4 * i]!;
      const wy = wind[4 * i + 1]!;
      const wz = wind[4 * i + 2]!;
      const speed = Math.sqrt(wx * wx + wy * wy + wz * wz);
      // Long gusts would cross the map: clamp the drawn length, keep the colour for the speed.
      const scale = speed > 0 ? (Math.min(speed, maxSpeed) / speed) * secondsOfTravel : 0;
      p[6 * i] = points[4 * i]!;
      p[6 * i + 1] = points[4 * i + 1]!;
      p[6 * i + 2] = points[4 * i + 2]!;
      p[6 * i + 3] = points[4 * i]! + wx * scale;
      p[6 * i + 4] = points[4 * i + 1]! + wy * scale;
      p[6 * i + 5] = points[4 * i + 2]! + wz * scale;
      speedColour(speed, maxSpeed, colour);
      c[6 * i] = colour.r * 0.25;
      c[6 * i + 1] = colour.g * 0.25;
      c[6 * i + 2] = colour.b * 0.25;
      c[6 * i + 3] = colour.r;
      c[6 * i + 4] = colour.g;
      c[6 * i + 5] = colour.b;
    }
    (this.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    (this.geometry.getAttribute('color') as THREE.BufferAttribute).needsUpdate = true;
  }
}

/**
 * Tracer particles drawn as points straight from the core's position planes (x of every tracer, then
 * y, then z; no copy): each plane is a one-float attribute, the x plane bound as `position` (so the
 * draw range and the renderer's bookkeeping work as usual) and the vertex shader puts the three together.
 */
export class TracerPoints {
  readonly points: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  private planes: Float32Array | null = null;
  private readonly attributes: THREE.BufferAttribute[] = [];

  constructor() {
    const material = new THREE.PointsMaterial({ color: 0xfff4d6, size: 2.2, sizeAttenuation: false, transparent: true, opacity: 0.85 });
    material.onBeforeCompile = (shader) => {
      shader.vertexShader =
        'attribute float tracerY;\nattribute float tracerZ;\n' +
        shader.vertexShader.replace('#include <begin_vertex>', 'vec3 transformed = vec3( position.x, tracerY, tracerZ );');
    };
    this.points = new THREE.Points(new THREE.BufferGeometry(), material);
    this.points.frustumCulled = false;
    this.points.name = 'wind-tracers';
  }

  update(planes: Float32Array, stride: number, count: number): void {
    const geometry = this.points.geometry;
    if (this.planes !== planes) {
      this.planes = planes;
      this.attributes.length = 0;
      ['position', 'tracerY', 'tracerZ'].forEach((name, k) => {
        const attribute = new THREE.BufferAttribute(planes.subarray(k * stride, (k + 1) * stride), 1);
        attribute.setUsage(THREE.DynamicDrawUsage);
        geometry.setAttribute(name, attribute);
        this.attributes.push(attribute);
      });
      // Bounds are never used (no culling); a fixed sphere keeps the renderer from computing them.
      geometry.boundingSphere = new THREE.Sphere(new THREE.Vector3(), Infinity);
    }
    for (const attribute of this.attributes) attribute.needsUpdate = true;
    geometry.setDrawRange(0, count);
  }
}

/** Effect gizmos: a wire sphere of each effect's reach, highlighted when selected. */
export class EffectGizmos {
  readonly group = new THREE.Group();
  private readonly geometry = new THREE.SphereGeometry(1, 24, 12);
  private readonly normal = new THREE.MeshBasicMaterial({ color: 0xffffff, wireframe: true, transparent: true, opacity: 0.18 });
  private readonly selected = new THREE.MeshBasicMaterial({ color: 0xffcc33, wireframe: true, transparent: true, opacity: 0.5 });

  constructor() {
    this.group.name = 'wind-gizmos';
  }

  update(effects: readonly { position: readonly number[]; reach: number; enabled: boolean }[], selectedIndex: number): void {
    while (this.group.children.length < effects.length) this.group.add(new THREE.Mesh(this.geometry, this.normal));
    while (this.group.children.length > effects.length) this.group.remove(this.group.children[this.group.children.length - 1]!);
    effects.forEach((effect, i) => {
      const mesh = this.group.children[i] as THREE.Mesh;
      const finite = Number.isFinite(effect.reach);
      mesh.visible = finite && effect.enabled;
      mesh.material = i === selectedIndex ? this.selected : this.normal;
      mesh.position.set(effect.position[0]!, effect.position[1]!, effect.position[2]);
      if (finite) mesh.scale.setScalar(effect.reach);
    });
  }
}
