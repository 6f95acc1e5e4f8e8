import { describe, expect, it } from 'vitest';
import { toModelMessages } from './to-model-messages.js';

describe('toModelMessages', () => {
  it('maps every part: images and files, signed thinking, tool calls, text, error and image results', () => {
    expect(
      toModelMessages([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: 'aW1n', mimeType: 'image/png' },
            { type: 'file', data: 'cGRm', mimeType: 'application/pdf', name: 'a.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: '', signature: 'ENCRYPTED', redacted: true },
            { type: 'thinking', thinking: 'hmm', signature: 'sig-1' },
            { type: 'text', text: 'checking' },
            { type: 'toolCall', id: 't1', name: 'shot', args: { x: 1 } },
            { type: 'toolCall', id: 't2', name: 'shot', args: {} },
          ],
        },
        { role: 'toolResult', toolCallId: 't1', toolName: 'shot', isError: false, content: [{ type: 'text', text: 'here' }, { type: 'image', data: 'cG5n', mimeType: 'image/png' }] },
        { role: 'toolResult', toolCallId: 't2', toolName: 'shot', isError: true, content: [{ type: 'text', text: 'no camera' }] },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image: 'aW1n', mediaType: 'image/png' },
          { type: 'file', data: 'cGRm', mediaType: 'application/pdf', filename: 'a.pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'ENCRYPTED' } } },
          { type: 'reasoning', text: 'hmm', providerOptions: { anthropic: { signature: 'sig-1' } } },
          { type: 'text', text: 'checking' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'shot', input: { x: 1 } },
          { type: 'tool-call', toolCallId: 't2', toolName: 'shot', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'shot',
            output: { type: 'content', value: [{ type: 'text', text: 'here' }, { type: 'media', data: 'cG5n', mediaType: 'image/png' }] },
          },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'shot', output: { type: 'error-text', value: 'no camera' } }] },
    ]);
  });

  it('leaves out what says nothing: blank text, empty unsigned thinking, and a message left with no content', () => {
    // Anthropic refuses an empty message or a blank text block on every later request; a tool
    // result always goes, since its call needs it.
    expect(
      toModelMessages([
        { role: 'user', content: ' ' },
        { role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'go' }] },
        { role: 'assistant', content: [] },
        { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, { type: 'thinking', thinking: '' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 'ENCRYPTED', redacted: true }, { type: 'thinking', thinking: '', signature: 'SIG' }, { type: 'text', text: ' ' }, { type: 'toolCall', id: 't1', name: 'shot', args: {} }] },
        { role: 'toolResult', toolCallId: 't1', toolName: 'shot', isError: false, content: [] },
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'ENCRYPTED' } } },
          { type: 'reasoning', text: '', providerOptions: { anthropic: { signature: 'SIG' } } },
          { type: 'tool-call', toolCallId: 't1', toolName: 'shot', input: {} },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'shot', output: { type: 'text', value: '' } }] },
    ]);
  });
});
