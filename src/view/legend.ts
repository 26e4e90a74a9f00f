import * as THREE from 'three';

/** One colour of a colour coding and what it means. */
export interface LegendSwatch {
  readonly colour: string;
  readonly label: string;
}

/**
 * The key of one colour coding on screen: named swatches, or a gradient between two labelled ends.
 * Views define their colours and their legends side by side, so the two cannot drift apart.
 */
export interface Legend {
  readonly title: string;
  readonly swatches?: readonly LegendSwatch[];
  readonly gradient?: { readonly stops: readonly string[]; readonly min: string; readonly max: string };
  /** A line under the key (a live figure such as the heat map's mean). */
  readonly note?: string;
}

const scratch = new THREE.Color();

/** The CSS colour of a three.js colour (or hex) as the screen shows it: linear working colours become sRGB. */
export function cssColour(colour: THREE.Color | number): string {
  return typeof colour === 'number' ? scratch.setHex(colour).getStyle() : colour.getStyle();
}

/** Swatches from a colour table keyed by label. */
export function swatches(entries: readonly (readonly [label: string, colour: THREE.Color | number])[]): LegendSwatch[] {
  return entries.map(([label, colour]) => ({ label, colour: cssColour(colour) }));
}
