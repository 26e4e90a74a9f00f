import type { TerrainMesh } from '../terrain/heightfield';
import { applyTerrainEdit, undoTerrainEdit, type AppliedTerrainEdit, type TerrainEdit } from '../terrain/edits';

/**
 * The terrain's edits as a timeline, in the order they are applied: the scene's own, then those made on
 * the page, each at the frame it was made. The first `appliedCount` are on the terrain now; stepping
 * applies the rest as their frames come, and going back in time undoes them, last first, so stepping
 * back N frames then forward N reaches the same terrain.
 */
export class TerrainEditLog {
  private timeline: TerrainEdit[] = [];
  /** Undo records of the applied edits, by timeline index (null: the edit moved no vertex). */
  private readonly applied: (AppliedTerrainEdit | null)[] = [];

  get edits(): readonly TerrainEdit[] {
    return this.timeline;
  }

  get appliedCount(): number {
    return this.applied.length;
  }

  /** A new timeline for a fresh terrain: nothing applied. */
  reset(edits: readonly TerrainEdit[]): void {
    this.timeline = [...edits].sort((a, b) => a.frame - b.frame);
    this.applied.length = 0;
  }

  /** Applies every edit due by `frame` (frame ≤ frame) not yet applied; returns what changed. */
  applyDue(terrain: TerrainMesh, frame: number): AppliedTerrainEdit[] {
    const changed: AppliedTerrainEdit[] = [];
    while (this.applied.length < this.timeline.length && this.timeline[this.applied.length]!.frame <= frame) {
      const applied = applyTerrainEdit(terrain, this.timeline[this.applied.length]!);
      this.applied.push(applied);
      if (applied !== null) changed.push(applied);
    }
    return changed;
  }

  /**
   * Adds an edit made now and applies it at once: it goes after every applied edit, before any the
   * timeline still holds for later frames.
   */
  add(terrain: TerrainMesh, edit: TerrainEdit): AppliedTerrainEdit | null {
    this.timeline.splice(this.applied.length, 0, edit);
    const applied = applyTerrainEdit(terrain, edit);
    this.applied.push(applied);
    return applied;
  }

  /** Undoes the newest applied edit and removes it from the timeline; returns what changed. */
  dropLastApplied(terrain: TerrainMesh): AppliedTerrainEdit[] {
    const index = this.applied.length - 1;
    if (index < 0) return [];
    const changed = this.undoTo(terrain, index);
    this.timeline.splice(index, 1);
    return changed;
  }

  /** Undoes applied edits, last first, until `count` remain; returns what changed. */
  undoTo(terrain: TerrainMesh, count: number): AppliedTerrainEdit[] {
    const changed: AppliedTerrainEdit[] = [];
    while (this.applied.length > count) {
      const applied = this.applied.pop()!;
      if (applied === null) continue;
      undoTerrainEdit(terrain, applied);
      changed.push(applied);
    }
    return changed;
  }
}
