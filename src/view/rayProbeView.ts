import * as THREE from 'three';
import type { Legend } from './legend';

/**
 * What a clicked ray shows: the segment from the camera to the hit, a marker at the hit, the normal as
 * an arrow and the hit triangle outlined.
 */
export class RayProbeView {
  readonly group = new THREE.Group();
  private readonly segment: THREE.Line<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly marker: THREE.Mesh;
  private readonly normal: THREE.ArrowHelper;
  private readonly triangle: THREE.LineLoop<THREE.BufferGeometry, THREE.LineBasicMaterial>;

  constructor() {
    this.group.name = 'ray-probe';
    this.segment = new THREE.Line(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(6), 3)),
      new THREE.LineBasicMaterial({ color: 0xffee55 }),
    );
    this.marker = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 8), new THREE.MeshBasicMaterial({ color: 0xff3355 }));
    this.normal = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 6, 0x33ddff, 1.6, 0.9);
    this.triangle = new THREE.LineLoop(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3)),
      new THREE.LineBasicMaterial({ color: 0xff3355, depthTest: false }),
    );
    this.triangle.renderOrder = 3;
    for (const object of [this.segment, this.marker, this.normal, this.triangle]) object.frustumCulled = false;
    this.group.add(this.segment, this.marker, this.normal, this.triangle);
    this.group.visible = false;
  }

  /** Shows a ray from `origin` to `end`; with a hit, the triangle's corners (9 floats) and its normal. */
  show(origin: THREE.Vector3, end: THREE.Vector3, hit: { corners: Float32Array; normal: THREE.Vector3; size: number } | null): void {
    this.group.visible = true;
    const segment = this.segment.geometry.getAttribute('position') as THREE.BufferAttribute;
    segment.setXYZ(0, origin.x, origin.y, origin.z);
    segment.setXYZ(1, end.x, end.y, end.z);
    segment.needsUpdate = true;
    this.marker.visible = this.normal.visible = this.triangle.visible = hit !== null;
    if (hit === null) return;
    this.marker.position.copy(end);
    this.marker.scale.setScalar(hit.size * 0.25);
    this.normal.position.copy(end);
    this.normal.setDirection(hit.normal);
    this.normal.setLength(hit.size * 3, hit.size, hit.size * 0.5);
    const corners = this.triangle.geometry.getAttribute('position') as THREE.BufferAttribute;
    (corners.array as Float32Array).set(hit.corners);
    corners.needsUpdate = true;
  }

  hide(): void {
    this.group.visible = false;
  }
}

/** The heat map's colour ramp (hue from blue to red, lightness rising with the cost), as CSS stops. */
const HEAT_STOPS = ['hsl(252, 100%, 12%)', 'hsl(180, 100%, 35%)', 'hsl(90, 100%, 45%)', 'hsl(40, 100%, 52%)', 'hsl(0, 100%, 57%)'];

/**
 * A heat map drawn over the view: one cell per sampled camera ray, coloured by a cost (nodes visited),
 * with its legend. A plain 2D canvas stretched over the WebGL canvas: it never touches the 3D scene.
 */
export class HeatMapOverlay {
  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  /** The key of the last map drawn; null before the first. */
  private drawnLegend: Legend | null = null;

  constructor(parent: HTMLElement) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'cs-heatmap';
    this.canvas.dataset.testid = 'heatmap';
    this.context = this.canvas.getContext('2d')!;
    this.canvas.hidden = true;
    parent.append(this.canvas);
  }

  set visible(value: boolean) {
    this.canvas.hidden = !value;
  }

  /** The legend of the map on screen, null while it is hidden or not drawn yet. */
  get legend(): Legend | null {
    return this.canvas.hidden ? null : this.drawnLegend;
  }

  /** `costs` is width·height values, row 0 at the top. */
  draw(costs: Float32Array, width: number, height: number, label: string): void {
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    let max = 1;
    for (let i = 0; i < width * height; i++) if (costs[i]! > max) max = costs[i]!;
    const image = this.context.createImageData(width, height);
    const colour = new THREE.Color();
    for (let i = 0; i < width * height; i++) {
      const t = costs[i]! / max;
      colour.setHSL(0.7 * (1 - t), 1, 0.12 + 0.45 * Math.sqrt(t));
      image.data[4 * i] = Math.round(colour.r * 255);
      image.data[4 * i + 1] = Math.round(colour.g * 255);
      image.data[4 * i + 2] = Math.round(colour.b * 255);
      // Rays that visit nothing (the sky outside the root box) stay clear.
      image.data[4 * i + 3] = costs[i]! > 0 ? 255 : 0;
    }
    this.context.putImageData(image, 0, 0);
    this.drawnLegend = { title: 'BVH nodes visited per camera ray', gradient: { stops: HEAT_STOPS, min: '0', max: max.toFixed(0) }, note: label };
  }
}
