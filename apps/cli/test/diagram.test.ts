import { describe, expect, it, vi } from 'vitest';
import { tiller } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

describe('tiller diagram', () => {
  it('prints Mermaid by default, DOT with --format dot, and an SVG laid out offline with stable state ids', async () => {
    const [mermaid, dot, svg] = await Promise.all([tiller(['diagram']), tiller(['diagram', '--format', 'dot']), tiller(['diagram', '-f', 'svg'])]);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toMatch(/^stateDiagram-v2\n/);
    expect(dot.code).toBe(0);
    expect(dot.stdout).toMatch(/^digraph /);
    expect(svg.code).toBe(0);
    expect(svg.stdout).toContain('<svg');
    for (const state of ['idle', 'calling', 'steering', 'tools.running']) expect(svg.stdout).toContain(`id="state:${state}"`);
  });
});
