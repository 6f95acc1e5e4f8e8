import { toDot, turnMachine } from '@tiller/core';

/** The turn machine as DOT: what the committed chart is rendered from. */
export function turnChartDot(): string {
  return toDot(turnMachine);
}

/**
 * Renders the DOT to SVG with Graphviz (WASM). Node side only (build time and the staleness
 * test): the page ships the rendered SVG and never loads Graphviz.
 */
export async function renderTurnChart(): Promise<string> {
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  return viz.renderString(turnChartDot(), { format: 'svg' });
}
