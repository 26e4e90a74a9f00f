import * as Layout from './contactBuffer';
import type { ContactBuffer } from './contactBuffer';

const CONTACT_STRIDE = Layout.CONTACT_STRIDE;
const C_NX = Layout.C_NX;
const C_T1 = Layout.C_T1;
const C_T2 = Layout.C_T2;
const C_LAMBDA_N = Layout.C_LAMBDA_N;
const C_LAMBDA_T1 = Layout.C_LAMBDA_T1;
const C_LAMBDA_T2 = Layout.C_LAMBDA_T2;
const C_LAMBDA_ROLL1 = Layout.C_LAMBDA_ROLL1;
const C_LAMBDA_ROLL2 = Layout.C_LAMBDA_ROLL2;
const C_LAMBDA_ROLL3 = Layout.C_LAMBDA_ROLL3;

/** Per stored contact: normal impulse, friction impulse (world vector), rolling impulse (world vector). */
export const IMPULSE_STRIDE = 7;
/** Per stored contact: body a, body b, feature of a, feature of b. */
const KEY_STRIDE = 4;
const EMPTY = -1;

/** What a snapshot keeps of the cache (copies). */
export interface ContactCacheSnapshot {
  readonly count: number;
  readonly substep: number;
  readonly keys: Int32Array;
  readonly impulses: Float64Array;
}

/**
 * The impulses each contact ended the last substep with, found again by the contact's key (its two
 * bodies and the features — contact sphere, triangle or other actor's sphere — that made it). The solver
 * starts from them (warm starting): a pile at rest carries nearly the same impulses from one substep to
 * the next, so a few sweeps refine what many sweeps from zero would rebuild every substep.
 *
 * Friction and rolling impulses are kept as world vectors, so a contact whose normal turned a little
 * (and with it the tangents the solver picks) keeps its impulse's direction. Open addressing on typed
 * arrays: no allocation once grown; the lookup order depends only on the keys, so it is deterministic.
 * It is part of the world's state: snapshots copy it, so a restored world continues exactly.
 */
export class ContactCache {
  count = 0;
  /** Length of the substep the impulses were reached in (impulses scale with it). */
  substep = 0;
  keys = new Int32Array(KEY_STRIDE * 256);
  impulses = new Float64Array(IMPULSE_STRIDE * 256);
  private table = new Int32Array(1024).fill(EMPTY);
  private mask = 1023;

  clear(): void {
    this.count = 0;
    this.substep = 0;
    this.table.fill(EMPTY);
  }

  /** The stored contact with this key, or −1. */
  find(a: number, b: number, featureA: number, featureB: number): number {
    if (this.count === 0) return -1;
    const table = this.table;
    const keys = this.keys;
    const mask = this.mask;
    let slot = hashKey(a, b, featureA, featureB) & mask;
    for (;;) {
      const entry = table[slot]!;
      if (entry === EMPTY) return -1;
      const k = KEY_STRIDE * entry;
      if (keys[k] === a && keys[k + 1] === b && keys[k + 2] === featureA && keys[k + 3] === featureB) return entry;
      slot = (slot + 1) & mask;
    }
  }

  /** Replaces the cache by the contacts' keys and final impulses, reached in a substep of length h. */
  store(contacts: ContactBuffer, h: number): void {
    const n = contacts.count;
    this.reserve(n);
    const table = this.table;
    table.fill(EMPTY);
    const mask = this.mask;
    const keys = this.keys;
    const impulses = this.impulses;
    const data = contacts.data;
    const bodies = contacts.bodies;
    const features = contacts.features;
    let stored = 0;
    for (let c = 0; c < n; c++) {
      const a = bodies[2 * c]!,
        b = bodies[2 * c + 1]!,
        fa = features[2 * c]!,
        fb = features[2 * c + 1]!;
      let slot = hashKey(a, b, fa, fb) & mask;
      let duplicate = false;
      for (;;) {
        const entry = table[slot]!;
        if (entry === EMPTY) break;
        const k = KEY_STRIDE * entry;
        if (keys[k] === a && keys[k + 1] === b && keys[k + 2] === fa && keys[k + 3] === fb) {
          duplicate = true;
          break;
        }
        slot = (slot + 1) & mask;
      }
      // Two contacts with one key (a sphere touching two triangles' shared edge is merged before
      // this; a pair's spheres are unique): the first keeps the slot.
      if (duplicate) continue;
      table[slot] = stored;
      const k = KEY_STRIDE * stored;
      keys[k] = a;
      keys[k + 1] = b;
      keys[k + 2] = fa;
      keys[k + 3] = fb;
      const o = CONTACT_STRIDE * c;
      const i = IMPULSE_STRIDE * stored;
      const t1 = data[o + C_LAMBDA_T1]!,
        t2 = data[o + C_LAMBDA_T2]!;
      const r1 = data[o + C_LAMBDA_ROLL1]!,
        r2 = data[o + C_LAMBDA_ROLL2]!,
        r3 = data[o + C_LAMBDA_ROLL3]!;
      impulses[i] = data[o + C_LAMBDA_N]!;
      impulses[i + 1] = t1 * data[o + C_T1]! + t2 * data[o + C_T2]!;
      impulses[i + 2] = t1 * data[o + C_T1 + 1]! + t2 * data[o + C_T2 + 1]!;
      impulses[i + 3] = t1 * data[o + C_T1 + 2]! + t2 * data[o + C_T2 + 2]!;
      impulses[i + 4] = r1 * data[o + C_T1]! + r2 * data[o + C_T2]! + r3 * data[o + C_NX]!;
      impulses[i + 5] = r1 * data[o + C_T1 + 1]! + r2 * data[o + C_T2 + 1]! + r3 * data[o + C_NX + 1]!;
      impulses[i + 6] = r1 * data[o + C_T1 + 2]! + r2 * data[o + C_T2 + 2]! + r3 * data[o + C_NX + 2]!;
      stored++;
    }
    this.count = stored;
    this.substep = h;
  }

  snapshot(): ContactCacheSnapshot {
    return {
      count: this.count,
      substep: this.substep,
      keys: this.keys.slice(0, KEY_STRIDE * this.count),
      impulses: this.impulses.slice(0, IMPULSE_STRIDE * this.count),
    };
  }

  /** Puts a snapshot back (copying) and rebuilds the lookup table. */
  restore(state: ContactCacheSnapshot): void {
    this.reserve(state.count);
    this.keys.set(state.keys);
    this.impulses.set(state.impulses);
    this.count = state.count;
    this.substep = state.substep;
    const table = this.table;
    table.fill(EMPTY);
    const keys = this.keys;
    for (let e = 0; e < this.count; e++) {
      const k = KEY_STRIDE * e;
      let slot = hashKey(keys[k]!, keys[k + 1]!, keys[k + 2]!, keys[k + 3]!) & this.mask;
      while (table[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      table[slot] = e;
    }
  }

  private reserve(n: number): void {
    if (this.keys.length < KEY_STRIDE * n) {
      const capacity = Math.max(n, 2 * (this.keys.length / KEY_STRIDE));
      this.keys = new Int32Array(KEY_STRIDE * capacity);
      this.impulses = new Float64Array(IMPULSE_STRIDE * capacity);
    }
    // At most half full, so probes stay short.
    if (this.table.length < 2 * n) {
      let size = this.table.length;
      while (size < 2 * n) size *= 2;
      this.table = new Int32Array(size).fill(EMPTY);
      this.mask = size - 1;
    }
  }
}

function hashKey(a: number, b: number, featureA: number, featureB: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ featureA, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ featureB, 0x165667b1);
  return (h ^ (h >>> 16)) >>> 0;
}
