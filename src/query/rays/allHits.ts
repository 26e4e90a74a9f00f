import type { AllHitsList } from './rayTypes';

/**
 * Appends one hit of an 'all' query. When spatial splits put a triangle in two leaves, the same hit can
 * be found twice: the ray's earlier entries (they are contiguous, at the end of the list) are searched
 * first. Past capacity the hit is only counted.
 */
export function recordAllHit(list: AllHitsList, ray: number, t: number, triangle: number, dedupe: boolean): void {
  if (dedupe) {
    for (let i = list.count - 1; i >= 0 && list.ray[i] === ray; i--) {
      if (list.triangle[i] === triangle) return;
    }
  }
  if (list.count >= list.capacity) {
    list.dropped++;
    return;
  }
  list.ray[list.count] = ray;
  list.t[list.count] = t;
  list.triangle[list.count] = triangle;
  list.count++;
}
