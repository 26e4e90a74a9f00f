import type GUI from 'lil-gui';
import { OptionController, type Controller } from 'lil-gui';

/** The camera as the URL carries it. */
export interface CameraView {
  position: readonly number[];
  target: readonly number[];
  fov: number;
}

type Value = string | number | boolean;

/** Settings keys are "Folder/Sub folder/property" paths, stable across releases of the panel's labels. */
function settingKey(controller: Controller): string {
  const path: string[] = [];
  for (let gui: GUI | undefined = controller.parent; gui !== undefined && gui.parent !== undefined; gui = gui.parent) path.unshift(gui._title);
  path.push(controller.property);
  return path.join('/');
}

/** The controllers whose values are settings: editable, holding a plain value (not a button). */
function settingControllers(gui: GUI): Map<string, Controller> {
  const byKey = new Map<string, Controller>();
  for (const controller of gui.controllersRecursive()) {
    if (controller._disabled) continue; // read-outs
    const value: unknown = controller.getValue();
    if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') continue;
    const key = settingKey(controller);
    if (!byKey.has(key)) byKey.set(key, controller);
  }
  return byKey;
}

const roundForUrl = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Every GUI setting that differs from its initial value (all terrain values), plus the camera, as a URL hash:
 *   #Terrain/seed=42&View/fog=false&camera=x,y,z,tx,ty,tz,fov
 * Readable, so a link in a slide or an issue says what it shows.
 */
export function encodeState(gui: GUI, camera: CameraView): string {
  const parameters = new URLSearchParams();
  for (const [key, controller] of settingControllers(gui)) {
    const value = controller.getValue() as Value;
    // Terrain values always go in: they are what a scene is, and a preset switch changes them all.
    if (value === controller.initialValue && !key.startsWith('Terrain/')) continue;
    // A menu showing a value it does not offer (the preset menu naming a loaded file's scene) has no setting to restore.
    if (controller instanceof OptionController && !(controller._values as unknown[]).includes(value)) continue;
    parameters.set(key, String(typeof value === 'number' ? roundForUrl(value) : value));
  }
  parameters.set('camera', [...camera.position, ...camera.target, camera.fov].map((v) => roundForUrl(v)).join(','));
  return '#' + parameters.toString();
}

export interface DecodedState {
  /** Settings applied through their controllers (so every change handler ran). */
  applied: string[];
  /** Keys or values that could not be applied, with why; the rest of the hash still applies. */
  problems: string[];
  camera: CameraView | null;
}

/** Applies a hash made by encodeState: each value goes through its controller as if the user set it. */
export function applyState(gui: GUI, hash: string, order: (key: string) => number = () => 0): DecodedState {
  const parameters = new URLSearchParams(hash.replace(/^#/, ''));
  const controllers = settingControllers(gui);
  const result: DecodedState = { applied: [], problems: [], camera: null };
  const entries = [...parameters.entries()].sort((a, b) => order(a[0]) - order(b[0]));
  for (const [key, text] of entries) {
    if (key === 'camera') {
      const numbers = text.split(',').map(Number);
      if (numbers.length === 7 && numbers.every(Number.isFinite))
        result.camera = { position: numbers.slice(0, 3), target: numbers.slice(3, 6), fov: numbers[6]! };
      else result.problems.push(`camera: expected 7 numbers, got "${text}"`);
      continue;
    }
    const controller = controllers.get(key);
    if (controller === undefined) {
      result.problems.push(`${key}: no such setting`);
      continue;
    }
    const current: unknown = controller.getValue();
    let value: Value;
    if (typeof current === 'number') {
      value = Number(text);
      if (!Number.isFinite(value)) {
        result.problems.push(`${key}: expected a number, got "${text}"`);
        continue;
      }
    } else if (typeof current === 'boolean') {
      if (text !== 'true' && text !== 'false') {
        result.problems.push(`${key}: expected true or false, got "${text}"`);
        continue;
      }
      value = text === 'true';
    } else {
      value = text;
    }
    controller.load(value);
    result.applied.push(key);
  }
  return result;
}
