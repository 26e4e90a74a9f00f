/**
 * A comparison as 0 or 1, without a branch. Hot loops use it to turn data-dependent decisions into
 * arithmetic (V8 compiles `condition | 0` to a compare-and-set; an if or a ?: would be a jump that
 * mispredicts whenever neighbouring particles differ).
 */
export function bit(condition: boolean): number {
  return (condition as unknown as number) | 0;
}
