import * as THREE from 'three';

/**
 * Fly mode: drag with the mouse to look, WASD to move, Q/E down/up, Shift to go fast. A small
 * hand-rolled controller so no pointer lock is needed (it works in embedded demos and headless tests).
 * Keys come through `press` / `release` from the page's shortcuts, so a feature that claims WASD wins.
 */
export class FlyController {
  enabled = true;
  speed = 100;
  private yaw = 0;
  private pitch = 0;
  private readonly keys = new Set<string>();
  private dragging = false;
  private lastX = 0;
  private lastY = 0;
  private readonly euler = new THREE.Euler(0, 0, 0, 'YXZ');
  private readonly move = new THREE.Vector3();

  constructor(
    private readonly camera: THREE.PerspectiveCamera,
    element: HTMLElement,
  ) {
    element.addEventListener('pointerdown', (event) => {
      if (!this.enabled) return;
      this.dragging = true;
      this.lastX = event.clientX;
      this.lastY = event.clientY;
      element.setPointerCapture(event.pointerId);
    });
    element.addEventListener('pointermove', (event) => {
      if (!this.enabled || !this.dragging) return;
      this.yaw -= (event.clientX - this.lastX) * 0.004;
      this.pitch = THREE.MathUtils.clamp(this.pitch - (event.clientY - this.lastY) * 0.004, -1.5, 1.5);
      this.lastX = event.clientX;
      this.lastY = event.clientY;
    });
    element.addEventListener('pointerup', () => (this.dragging = false));
  }

  /** A key went down (`event.code`); the page's keyboard dispatch calls these, the controller listens to no key itself. */
  press(code: string): void {
    this.keys.add(code);
  }

  release(code: string): void {
    this.keys.delete(code);
  }

  /** The window lost the keyboard: no key is held any more. */
  releaseAll(): void {
    this.keys.clear();
  }

  syncFromCamera(): void {
    this.euler.setFromQuaternion(this.camera.quaternion, 'YXZ');
    this.yaw = this.euler.y;
    this.pitch = this.euler.x;
  }

  update(dtSeconds: number): void {
    if (!this.enabled) return;
    this.euler.set(this.pitch, this.yaw, 0, 'YXZ');
    this.camera.quaternion.setFromEuler(this.euler);
    const k = this.keys;
    this.move.set(
      (k.has('KeyD') ? 1 : 0) - (k.has('KeyA') ? 1 : 0),
      (k.has('KeyE') ? 1 : 0) - (k.has('KeyQ') ? 1 : 0),
      (k.has('KeyS') ? 1 : 0) - (k.has('KeyW') ? 1 : 0),
    );
    if (this.move.lengthSq() === 0) return;
    const fast = k.has('ShiftLeft') || k.has('ShiftRight') ? 4 : 1;
    this.move
      .normalize()
      .multiplyScalar(this.speed * fast * Math.min(dtSeconds, 0.1))
      .applyQuaternion(this.camera.quaternion);
    this.camera.position.add(this.move);
  }
}
