/**
 * One colour per timing phase, the same in every scene, chart, table and dialog: a fixed colour per
 * system (the part of the name before the first dot, or after `step.` / `view.`), and for a system's
 * sub-phases a lighter or darker shade of it picked from the sub-phase's name. A colour never depends on
 * the order in which phases happened to be recorded.
 */

/** The base colour of each group the page knows; other names get a hue hashed from their name. */
export const GROUP_COLOURS: Readonly<Record<string, string>> = Object.freeze({
  actors: '#f5a623',
  particles: '#e86a92',
  wind: '#4fd1c5',
  capsules: '#b38cf2',
  rayEmitters: '#f2d45c',
  boxProbe: '#ff7b54',
  broadphase: '#7ed957',
  cracks: '#d39b6a',
  bvh: '#8fa8ff',
  terrain: '#a8c66c',
  render: '#5fb3f9',
  other: '#8a99a8',
  frame: '#f4f7fa',
  step: '#c8d3dd',
});

/** The group a phase belongs to: `step.actors`, `view.actors` and `actors.solve` all belong to `actors`. */
export function phaseGroup(phase: string): string {
  if (phase.startsWith('step.')) return phase.slice(5);
  if (phase.startsWith('view.')) return phase.slice(5);
  const dot = phase.indexOf('.');
  return dot < 0 ? phase : phase.slice(0, dot);
}

/** FNV-1a of a string: a stable small hash for picking hues and shades. */
function hashName(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The colour of a group: its fixed colour, or a hue hashed from its name for a group nobody listed. */
export function groupColour(group: string): string {
  return GROUP_COLOURS[group] ?? `hsl(${hashName(group) % 360}, 62%, 64%)`;
}

/**
 * The colour of a phase: its group's colour for the group's own rows (`step.x`, `view.x`, `x`), a shade
 * of it for a sub-phase (`x.solve`), chosen from the sub-phase's name so it never moves.
 */
export function phaseColour(phase: string): string {
  const group = phaseGroup(phase);
  const base = groupColour(group);
  if (phase === group || phase === `step.${group}` || phase === `view.${group}`) return base;
  // Five shades from darker to lighter: mixed with black or white by up to 36 %.
  const shade = (hashName(phase) % 5) - 2;
  return mix(base, shade < 0 ? '#000000' : '#ffffff', Math.abs(shade) * 0.18);
}

/** `a` mixed with `b` by `amount` (0: a, 1: b); both #rrggbb or hsl() from groupColour. */
function mix(a: string, b: string, amount: number): string {
  const ca = toRgb(a);
  const cb = toRgb(b);
  const channel = (k: number): string =>
    Math.round(ca[k]! + (cb[k]! - ca[k]!) * amount)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

function toRgb(colour: string): [number, number, number] {
  if (colour.startsWith('#')) {
    const value = parseInt(colour.slice(1), 16);
    return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  }
  const [h, s, l] = (colour.match(/[\d.]+/g) ?? ['0', '0', '0']).map(Number) as [number, number, number];
  // hsl → rgb (CSS Color 4's formula).
  const sat = s / 100;
  const light = l / 100;
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (light - sat * Math.min(light, 1 - light) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
