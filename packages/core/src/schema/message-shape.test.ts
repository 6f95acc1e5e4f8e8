import { describe, expect, it } from 'vitest';
import { Message } from './message.js';
import { messageShapeProblem } from './message-shape.js';

const user = { role: 'user', content: 'hello' };
const userParts = {
  role: 'user',
  content: [
    { type: 'text', text: 'look' },
    { type: 'image', data: 'aGk=', mimeType: 'image/png' },
    { type: 'file', data: 'https://example.com/a.pdf', mimeType: 'application/pdf', name: 'a.pdf' },
  ],
};
const assistant = {
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'the file first', signature: 'sig' },
    { type: 'text', text: 'Let me read it.' },
    { type: 'toolCall', id: 'c1', name: 'read_file', args: { path: 'a.txt' } },
  ],
  stopReason: 'toolUse',
};
const toolResult = {
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'read_file',
  content: [
    { type: 'text', text: 'contents' },
    { type: 'image', data: 'aGk=', mimeType: 'image/png' },
  ],
  isError: false,
};

/** `message` with its part at `index` replaced by `part`. */
const withPart = (message: { content: unknown[] }, index: number, part: unknown) => ({ ...message, content: message.content.map((p, i) => (i === index ? part : p)) });

describe('messageShapeProblem', () => {
  it.each([
    ['a user message with text', user],
    ['a user message with text, image and file parts', userParts],
    ['an assistant message with thinking, text and a tool call', assistant],
    ['a tool result with text and an image', toolResult],
    ['an assistant message with no parts', { role: 'assistant', content: [] }],
  ])('finds nothing wrong with %s (which the full schema takes too)', (_, message) => {
    expect(Message.safeParse(message).success).toBe(true);
    expect(messageShapeProblem(message)).toBeUndefined();
  });

  it.each([null, undefined, 'hello', 42, true])('refuses %j as no message at all', (value) => {
    expect(messageShapeProblem(value)).toEqual({ field: '(the message)', reason: 'expected an object' });
  });

  it.each([{ content: 'hi' }, { role: 'system', content: 'hi' }, { role: 'User', content: 'hi' }, []])('refuses a role other than the three: %j', (message) => {
    expect(messageShapeProblem(message)).toEqual({ field: 'role', reason: 'expected user, assistant or toolResult' });
  });

  it('says what content each role takes when it is missing or of the wrong kind', () => {
    expect(messageShapeProblem({ role: 'user' })).toEqual({ field: 'content', reason: 'expected a string or an array of parts' });
    expect(messageShapeProblem({ role: 'user', content: { type: 'text', text: 'hi' } })).toEqual({ field: 'content', reason: 'expected a string or an array of parts' });
    expect(messageShapeProblem({ role: 'assistant', content: 'hi' })).toEqual({ field: 'content', reason: 'expected an array of parts' });
    expect(messageShapeProblem({ ...toolResult, content: 'contents' })).toEqual({ field: 'content', reason: 'expected an array of parts' });
  });

  it.each([undefined, '', 7])('refuses a tool result whose toolCallId is %j, before its content', (toolCallId) => {
    expect(messageShapeProblem({ ...toolResult, toolCallId, content: 'not parts either' })).toEqual({ field: 'toolCallId', reason: 'expected a non-empty string' });
  });

  it.each([null, 'text', 3])('refuses a part that is no object (%j), naming its index', (part) => {
    expect(messageShapeProblem(withPart(assistant, 1, part))).toEqual({ field: 'content[1]', reason: 'expected a part (an object with a type)' });
  });

  it('refuses a part type the role does not take, listing the ones it does', () => {
    expect(messageShapeProblem(withPart(userParts, 0, { type: 'thinking', thinking: 'x' }))).toEqual({ field: 'content[0].type', reason: 'expected text, image, file' });
    expect(messageShapeProblem(withPart(userParts, 2, { type: 'toolCall', id: 'c', name: 'n', args: {} }))).toEqual({ field: 'content[2].type', reason: 'expected text, image, file' });
    expect(messageShapeProblem(withPart(assistant, 0, { type: 'image', data: 'aGk=', mimeType: 'image/png' }))).toEqual({ field: 'content[0].type', reason: 'expected text, thinking, toolCall' });
    expect(messageShapeProblem(withPart(toolResult, 1, { type: 'file', data: 'x', mimeType: 'text/plain' }))).toEqual({ field: 'content[1].type', reason: 'expected text, image' });
  });

  it.each([{ text: 'no type' }, { type: 7, text: 'x' }, { type: 'toString' }, { type: '__proto__' }, { type: 'hasOwnProperty' }])(
    'refuses a part whose type is missing, no string, or a name every object has: %j',
    (part) => {
      expect(messageShapeProblem(withPart(assistant, 0, part))).toEqual({ field: 'content[0].type', reason: 'expected text, thinking, toolCall' });
    },
  );

  it.each([
    ['a text part without its text', userParts, 0, { type: 'text' }, 'content[0].text'],
    ['a text part whose text is no string', assistant, 1, { type: 'text', text: ['a'] }, 'content[1].text'],
    ['an image without its data', userParts, 1, { type: 'image', mimeType: 'image/png' }, 'content[1].data'],
    ['an image without its mime type', toolResult, 1, { type: 'image', data: 'aGk=' }, 'content[1].mimeType'],
    ['a file without its data', userParts, 2, { type: 'file', mimeType: 'application/pdf' }, 'content[2].data'],
    ['a file without its mime type', userParts, 2, { type: 'file', data: 'x' }, 'content[2].mimeType'],
    ['thinking without its text', assistant, 0, { type: 'thinking', signature: 'sig' }, 'content[0].thinking'],
    ['a tool call without its id', assistant, 2, { type: 'toolCall', name: 'read_file', args: {} }, 'content[2].id'],
    ['a tool call without its name', assistant, 2, { type: 'toolCall', id: 'c1', args: {} }, 'content[2].name'],
    ['a tool result text part without its text', toolResult, 0, { type: 'text', text: null }, 'content[0].text'],
  ])('refuses %s, naming the field', (_, message, index, part, field) => {
    expect(messageShapeProblem(withPart(message, index, part))).toEqual({ field, reason: 'expected a string' });
  });

  it.each([undefined, null, [], ['a'], 'path=a.txt', 3])("refuses a tool call whose args are %j: they must be an object", (args) => {
    expect(messageShapeProblem(withPart(assistant, 2, { type: 'toolCall', id: 'c1', name: 'read_file', args }))).toEqual({ field: 'content[2].args', reason: 'expected an object' });
  });

  it('names the first bad field when there are several', () => {
    const twice = { role: 'assistant', content: [{ type: 'text', text: 'fine' }, { type: 'toolCall', name: 'x', args: [] }, { type: 'bogus' }] };
    expect(messageShapeProblem(twice)).toEqual({ field: 'content[1].id', reason: 'expected a string' });
  });
});
