import { buildContext } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { runExample } from '../examples/long-tool-loop.js';

describe('docs/compaction.md example: a long tool loop under a 32,000-token window', () => {
  it('compacts between rounds whenever the context reaches the reserve, and prints what the guide shows', async () => {
    const lines: string[] = [];
    const path = await runExample((line) => lines.push(line));
    expect(lines).toEqual([
      'round 28: compacted 28620 -> 7656 tokens, 43 entries left the context',
      'round 49: compacted 28887 -> 7885 tokens, 42 entries left the context',
      'round 69: compacted 28105 -> 8110 tokens, 40 entries left the context',
      'log: 144 entries; context: 17 messages, about 9121 tokens',
      'the summary lists 62 modules read, src/parser/m0.ts to src/parser/m61.ts',
    ]);
    // The log kept every entry; only the view shrank, and every kept call still has its result.
    expect(path.filter((e) => e.kind === 'message')).toHaveLength(1 + 70 * 2);
    const view = buildContext(path);
    const results = new Set(view.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])));
    for (const m of view) if (m.role === 'assistant') for (const p of m.content) if (p.type === 'toolCall') expect(results.has(p.id)).toBe(true);
  });
});
