import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { FlyController } from './flyController';
import { softwareRendererName } from './softwareRenderer';

export type CameraMode = 'orbit' | 'fly';

export interface StageLook {
  fog: boolean;
  /** Fog density relative to the world size: 0 clear, 1 thick. */
  fogAmount: number;
  sunElevation: number;
  sunAzimuth: number;
}

/**
 * The three.js stage: renderer, camera, lights, fog and camera controls (orbit or fly). Drawables are
 * added to `scene`. Handles resizing and the device pixel ratio. On a software renderer it draws without
 * multisampling, one pixel per CSS pixel (softwareRenderer.ts).
 */
export class Stage {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly orbit: OrbitControls;
  readonly fly: FlyController;
  private readonly sun = new THREE.DirectionalLight(0xfff1dc, 2.4);
  private readonly sky = new THREE.HemisphereLight(0xbfd8ff, 0x3a2e22, 0.9);
  private readonly fog = new THREE.FogExp2(0xa9c4de, 0);
  private mode: CameraMode = 'orbit';
  private worldSize = 512;
  /** The world size the camera, fog and clip planes are fitted to. */
  get worldSizeShown(): number {
    return this.worldSize;
  }
  /** The CPU renderer WebGL runs on (SwiftShader…), or null on a GPU. */
  readonly softwareRenderer = softwareRendererName();
  private look: StageLook = { fog: true, fogAmount: 0.35, sunElevation: 38, sunAzimuth: 135 };

  constructor(container: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({
      antialias: this.softwareRenderer === null,
      preserveDrawingBuffer: true,
      powerPreference: 'high-performance',
    });
    this.renderer.setPixelRatio(this.pixelRatio());
    this.renderer.setSize(container.clientWidth, container.clientHeight);
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.renderer.domElement.tabIndex = 0;
    container.appendChild(this.renderer.domElement);

    this.camera = new THREE.PerspectiveCamera(50, container.clientWidth / Math.max(container.clientHeight, 1), 0.5, 20000);
    this.scene.background = new THREE.Color(0xa9c4de);
    this.scene.fog = this.fog;
    this.scene.add(this.sky, this.sun, this.sun.target);

    this.orbit = new OrbitControls(this.camera, this.renderer.domElement);
    this.orbit.enableDamping = true;
    this.orbit.dampingFactor = 0.08;
    this.orbit.maxPolarAngle = Math.PI * 0.495;
    this.fly = new FlyController(this.camera, this.renderer.domElement);
    this.fly.enabled = false;

    const resize = (): void => {
      const width = container.clientWidth;
      const height = Math.max(container.clientHeight, 1);
      this.renderer.setPixelRatio(this.pixelRatio());
      this.renderer.setSize(width, height);
      this.camera.aspect = width / height;
      this.camera.updateProjectionMatrix();
    };
    new ResizeObserver(resize).observe(container);
    window.addEventListener('resize', resize);
    this.applyLook(this.look);
  }

  private pixelRatio(): number {
    return Math.min(window.devicePixelRatio || 1, this.softwareRenderer === null ? 2 : 1);
  }

  setCameraMode(mode: CameraMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.orbit.enabled = mode === 'orbit';
    this.fly.enabled = mode === 'fly';
    if (mode === 'orbit') {
      // Orbit around the point the flyer was looking at, at the same distance as before.
      const forward = new THREE.Vector3();
      this.camera.getWorldDirection(forward);
      const distance = Math.max(this.camera.position.length() * 0.5, 50);
      this.orbit.target.copy(this.camera.position).addScaledVector(forward, distance);
      this.orbit.update();
    } else {
      this.fly.syncFromCamera();
      this.fly.speed = this.worldSize * 0.25;
    }
  }

  get cameraMode(): CameraMode {
    return this.mode;
  }

  setView(position: readonly number[], target: readonly number[], fov: number): void {
    this.camera.position.set(position[0]!, position[1]!, position[2]);
    this.camera.fov = fov;
    this.camera.updateProjectionMatrix();
    this.orbit.target.set(target[0]!, target[1]!, target[2]);
    this.camera.lookAt(this.orbit.target);
    this.orbit.update();
    this.fly.syncFromCamera();
  }

  /** The current view: position, the point looked at, vertical field of view in degrees. */
  /**
   * Frames a sphere: the camera keeps its viewing direction (looking down at least 20°, so the ground
   * stays in view) and moves back until the sphere fills most of the picture.
   */
  frameSphere(center: readonly number[], radius: number): void {
    const target = new THREE.Vector3(center[0], center[1], center[2]);
    const back = new THREE.Vector3().subVectors(this.camera.position, this.orbit.target);
    if (back.lengthSq() === 0) back.set(1, 1, 1);
    back.normalize();
    const minimumDrop = Math.sin((20 * Math.PI) / 180);
    if (back.y < minimumDrop) {
      const flat = Math.hypot(back.x, back.z) || 1;
      const across = Math.sqrt(1 - minimumDrop * minimumDrop);
      back.set((back.x / flat) * across, minimumDrop, (back.z / flat) * across);
    }
    const halfFov = (Math.min(this.camera.fov, this.camera.fov * this.camera.aspect) * Math.PI) / 360;
    const distance = (1.15 * Math.max(radius, 0.5)) / Math.sin(halfFov);
    this.setView(target.clone().addScaledVector(back, distance).toArray(), target.toArray(), this.camera.fov);
  }

  getView(): { position: number[]; target: number[]; fov: number } {
    const p = this.camera.position;
    let target: number[];
    if (this.mode === 'orbit') target = [this.orbit.target.x, this.orbit.target.y, this.orbit.target.z];
    else {
      const forward = new THREE.Vector3();
      this.camera.getWorldDirection(forward);
      const distance = Math.max(this.camera.position.length() * 0.5, 50);
      target = [p.x + forward.x * distance, p.y + forward.y * distance, p.z + forward.z * distance];
    }
    return { position: [p.x, p.y, p.z], target, fov: this.camera.fov };
  }

  /** Fits near/far planes, fog and the sun's shadowless direction to a world of this size. */
  setWorldSize(size: number): void {
    this.worldSize = size;
    this.camera.near = Math.max(size / 4000, 0.05);
    this.camera.far = size * 12;
    this.camera.updateProjectionMatrix();
    this.orbit.maxDistance = size * 5;
    this.applyLook(this.look);
  }

  applyLook(look: StageLook): void {
    this.look = { ...look };
    this.fog.density = look.fog ? (look.fogAmount * 2.2) / this.worldSize : 0;
    const elevation = THREE.MathUtils.degToRad(look.sunElevation);
    const azimuth = THREE.MathUtils.degToRad(look.sunAzimuth);
    this.sun.position
      .set(Math.cos(elevation) * Math.cos(azimuth), Math.sin(elevation), Math.cos(elevation) * Math.sin(azimuth))
      .multiplyScalar(this.worldSize);
  }

  update(dtSeconds: number): void {
    if (this.mode === 'orbit') this.orbit.update();
    else this.fly.update(dtSeconds);
  }

  render(): void {
    this.renderer.render(this.scene, this.camera);
  }
}
