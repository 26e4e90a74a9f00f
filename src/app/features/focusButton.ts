import type GUI from 'lil-gui';
import type { AppContext } from '../feature';

/** What a focus button frames: a sphere in world space. */
export interface FocusTarget {
  center: readonly [number, number, number];
  radius: number;
}

/**
 * A subsystem folder's "focus" button: frames what the subsystem draws (the feature says where that is),
 * so turning a system on from a far-away camera never shows an empty picture. Says so when nothing runs.
 */
export function addFocusButton(folder: GUI, context: AppContext, target: () => FocusTarget | null, what: string): void {
  folder
    .add(
      {
        focus: () => {
          const sphere = target();
          if (sphere === null) context.reportError(`Nothing to focus on: ${what} is off.`);
          else context.stage.frameSphere(sphere.center, sphere.radius);
        },
      },
      'focus',
    )
    .name(`⌖ focus the camera on ${what}`);
}

/** The sphere around points given as xyz triples (the first `count`), or null for none. */
export function sphereAround(xyz: ArrayLike<number>, count: number, stride = 3): FocusTarget | null {
  if (count <= 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = xyz[stride * i]!;
    const y = xyz[stride * i + 1]!;
    const z = xyz[stride * i + 2]!;
    if (!Number.isFinite(x + y + z)) continue;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    minZ = Math.min(minZ, z);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
    maxZ = Math.max(maxZ, z);
  }
  if (minX > maxX) return null;
  return {
    center: [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2],
    radius: Math.max(1, Math.hypot(maxX - minX, maxY - minY, maxZ - minZ) / 2),
  };
}
