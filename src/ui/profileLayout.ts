import { GROUP_COLOURS, phaseGroup } from './phaseColours';

/** One system's (or the render's) rows in the profiler. */
export interface PhaseGroupLayout {
  readonly group: string;
  /**
   * The phases that make up the group's share of a frame, disjoint in time: `step.x` (its simulation
   * step), `view.x` (its view's frame work), or a phase named like the group (`render`). Stacked.
   */
  readonly parts: readonly string[];
  /** Finer phases timed inside the parts (`x.solve`, `x.query`): listed under the group, never stacked. */
  readonly details: readonly string[];
}

export interface ProfileLayout {
  /** Per-frame groups in a fixed order: known systems first (GROUP_COLOURS' order), then by name. */
  readonly groups: readonly PhaseGroupLayout[];
  /** One-off events (builds, generation), listed apart with their time. */
  readonly events: readonly string[];
}

/** The whole frame's work, recorded by the page's frame loop. */
export const FRAME_PHASE = 'frame';
/** The sum of the systems' steps, which the groups already show one by one. */
const STEP_TOTAL = 'step';
const KNOWN_ORDER = Object.keys(GROUP_COLOURS);

/**
 * How the profiler shows a timing ring's phases: per-frame phases grouped by system (each group's
 * stacked parts and its finer details), the whole-frame phase apart, one-off events listed apart.
 * A group with no part of its own (its phases were timed by themselves) stacks its phases directly.
 */
export function profileLayout(phases: readonly string[], isEvent: (phase: string) => boolean): ProfileLayout {
  const events: string[] = [];
  const byGroup = new Map<string, { parts: string[]; details: string[] }>();
  for (const phase of phases) {
    if (isEvent(phase)) {
      events.push(phase);
      continue;
    }
    if (phase === FRAME_PHASE || phase === STEP_TOTAL) continue;
    const group = phaseGroup(phase);
    let entry = byGroup.get(group);
    if (entry === undefined) byGroup.set(group, (entry = { parts: [], details: [] }));
    if (phase === group || phase === `step.${group}` || phase === `view.${group}`) entry.parts.push(phase);
    else entry.details.push(phase);
  }
  const rank = (group: string): number => {
    const known = KNOWN_ORDER.indexOf(group);
    return known < 0 ? KNOWN_ORDER.indexOf('render') - 0.5 : known;
  };
  const groups = [...byGroup.entries()]
    .map(([group, { parts, details }]) =>
      parts.length === 0 ? { group, parts: details, details: [] as string[] } : { group, parts: parts.sort(partOrder), details },
    )
    .sort((a, b) => rank(a.group) - rank(b.group) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  return { groups, events };
}

/** step.x before view.x. */
function partOrder(a: string, b: string): number {
  const order = (phase: string): number => (phase.startsWith('step.') ? 0 : phase.startsWith('view.') ? 1 : 2);
  return order(a) - order(b);
}
