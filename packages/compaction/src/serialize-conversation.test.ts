import { describe, expect, it } from 'vitest';
import { serializeConversation, TOOL_OUTPUT_LIMIT } from './serialize-conversation.js';

describe('serializeConversation', () => {
  it('writes each message as labelled transcript lines, empty ones left out', () => {
    const text = serializeConversation([
      { role: 'user', content: [{ type: 'text', text: 'fix the bug' }, { type: 'image', data: 'x', mimeType: 'image/png' }] },
      { role: 'user', content: '' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'look at parse()' },
          { type: 'text', text: 'Reading it.' },
          { type: 'toolCall', id: 'c1', name: 'read', args: { path: 'src/parse.ts' } },
        ],
      },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'no such file' }], isError: true },
    ]);
    expect(text).toBe(
      [
        'USER: fix the bug\n[image image/png]',
        'ASSISTANT (reasoning): look at parse()\nASSISTANT: Reading it.\nASSISTANT CALLS read {"path":"src/parse.ts"}',
        'RESULT OF read FAILED: no such file',
      ].join('\n\n'),
    );
  });

  it('cuts long tool output and says how much was left out', () => {
    const text = serializeConversation([
      { role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: 'y'.repeat(TOOL_OUTPUT_LIMIT + 500) }], isError: false },
    ]);
    expect(text).toBe(`RESULT OF bash: ${'y'.repeat(TOOL_OUTPUT_LIMIT)}\n[500 further characters omitted]`);
  });
});
