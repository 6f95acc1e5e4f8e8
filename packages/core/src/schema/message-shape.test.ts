import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Message } from './message.js';
import { messageShapeProblem } from './message-shape.js';
import { changes, mutated, type Change } from '../../test/mutate-value.js';
import { zodFirstField } from '../../test/zod-first-field.js';

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

  it('refuses an array as no message at all, even one with a role and content', () => {
    for (const value of [[], [user], Object.assign([], user)]) {
      expect(Message.safeParse(value).success).toBe(false);
      expect(messageShapeProblem(value)).toEqual({ field: '(the message)', reason: 'expected an object' });
    }
  });

  it.each([{ content: 'hi' }, { role: 'system', content: 'hi' }, { role: 'User', content: 'hi' }])('refuses a role other than the three: %j', (message) => {
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
    ['a file without its data', userParts, 2, { type: 'file', mimeType: 'application/pdf' }, 'content[2].data'],
    ['thinking without its text', assistant, 0, { type: 'thinking', signature: 'sig' }, 'content[0].thinking'],
    ['a tool result text part without its text', toolResult, 0, { type: 'text', text: null }, 'content[0].text'],
  ])('refuses %s, naming the field', (_, message, index, part, field) => {
    expect(messageShapeProblem(withPart(message, index, part))).toEqual({ field, reason: 'expected a string' });
  });

  it.each([undefined, null, [], ['a'], 'path=a.txt', 3])("refuses a tool call whose args are %j: they must be an object", (args) => {
    expect(messageShapeProblem(withPart(assistant, 2, { type: 'toolCall', id: 'c1', name: 'read_file', args }))).toEqual({ field: 'content[2].args', reason: 'expected an object' });
  });

  it('names the first bad field when there are several', () => {
    const twice = { role: 'assistant', content: [{ type: 'text', text: 'fine' }, { type: 'toolCall', name: 'x', args: [] }, { type: 'bogus' }] };
    expect(messageShapeProblem(twice)).toEqual({ field: 'content[1].id', reason: 'expected a non-empty string' });
  });

  it.each([
    ['a tool call without its id', assistant, 2, { type: 'toolCall', name: 'read_file', args: {} }, 'content[2].id'],
    ['a tool call whose id is empty', assistant, 2, { type: 'toolCall', id: '', name: 'read_file', args: {} }, 'content[2].id'],
    ['a tool call without its name', assistant, 2, { type: 'toolCall', id: 'c1', args: {} }, 'content[2].name'],
    ['a tool call whose name is empty', assistant, 2, { type: 'toolCall', id: 'c1', name: '', args: {} }, 'content[2].name'],
    ['a user image without its mime type', userParts, 1, { type: 'image', data: 'aGk=' }, 'content[1].mimeType'],
    ['a user image whose mime type is empty', userParts, 1, { type: 'image', data: 'aGk=', mimeType: '' }, 'content[1].mimeType'],
    ['a file without its mime type', userParts, 2, { type: 'file', data: 'x' }, 'content[2].mimeType'],
    ['a file whose mime type is empty', userParts, 2, { type: 'file', data: 'x', mimeType: '' }, 'content[2].mimeType'],
    ['a tool result image whose mime type is empty', toolResult, 1, { type: 'image', data: 'aGk=', mimeType: '' }, 'content[1].mimeType'],
  ])('refuses %s, as the schema does', (_, message, index, part, field) => {
    const bad = withPart(message, index, part);
    expect(Message.safeParse(bad).success).toBe(false);
    expect(messageShapeProblem(bad)).toEqual({ field, reason: 'expected a non-empty string' });
  });

  describe('the optional fields, when present', () => {
    /** Refused by the schema and by the check, which names `field` and says `reason`. */
    const refusedAt = (message: unknown, field: string, reason: string) => {
      expect(Message.safeParse(message).success).toBe(false);
      expect(messageShapeProblem(message)).toEqual({ field, reason });
    };
    const usage = { input: 10, output: 5, cacheRead: 2, cacheWrite: 0, totalTokens: 17 };
    const cost = { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 };

    it('takes every optional field the schema names, and keys it does not name', () => {
      const full = [
        withPart(withPart(assistant, 0, { type: 'thinking', thinking: '', signature: 'enc', redacted: true }), 2, { type: 'toolCall', id: 'c1', name: 'read_file', args: {}, unparsedArgs: 'path=a' }),
        { ...assistant, usage: { ...usage, cost }, stopReason: 'error', model: 'anthropic/claude', errorMessage: 'overloaded', extra: 1 },
        { ...assistant, usage: { ...usage, totalTokens: 0, cost: { ...cost, total: 0 } } },
        { ...toolResult, details: { anything: [1, null] }, toolName: '' },
        withPart(userParts, 1, { type: 'image', data: '', mimeType: 'image/png', name: 7, note: 'not a file: a name is not looked at' }),
        { ...user, id: 'kept by nobody' },
      ];
      for (const message of full) {
        expect(Message.safeParse(message).success).toBe(true);
        expect(messageShapeProblem(message)).toBeUndefined();
      }
    });

    it.each([
      ['a thinking signature that is no string', withPart(assistant, 0, { type: 'thinking', thinking: 'x', signature: 5 }), 'content[0].signature', 'expected a string when present'],
      ['a redacted flag that is no boolean', withPart(assistant, 0, { type: 'thinking', thinking: 'x', redacted: 'yes' }), 'content[0].redacted', 'expected true or false'],
      ["a tool call's unparsedArgs that is no string", withPart(assistant, 2, { type: 'toolCall', id: 'c1', name: 'n', args: {}, unparsedArgs: { a: 1 } }), 'content[2].unparsedArgs', 'expected a string when present'],
      ["a file's name that is no string", withPart(userParts, 2, { type: 'file', data: 'x', mimeType: 'text/plain', name: null }), 'content[2].name', 'expected a string when present'],
      ['a stopReason outside the five', { ...assistant, stopReason: 'end_turn' }, 'stopReason', 'expected stop, length, toolUse, error or aborted'],
      ['a stopReason of null', { ...assistant, stopReason: null }, 'stopReason', 'expected stop, length, toolUse, error or aborted'],
      ['a model that is no string', { ...assistant, model: 7 }, 'model', 'expected a string when present'],
      ['an errorMessage that is no string', { ...assistant, errorMessage: { message: 'x' } }, 'errorMessage', 'expected a string when present'],
    ])('refuses %s', (_, message, field, reason) => refusedAt(message, field, reason));

    it.each([null, 'lots', 17, [], [17]])('refuses a usage of %j', (value) => refusedAt({ ...assistant, usage: value }, 'usage', 'expected an object'));

    it.each([
      ['missing', 'totalTokens', undefined],
      ['negative', 'input', -1],
      ['a fraction', 'output', 1.5],
      ['not a number', 'cacheRead', '3'],
      ['NaN', 'cacheWrite', NaN],
      ['infinite', 'input', Infinity],
      ['past the safe integers', 'totalTokens', 2 ** 53],
    ])('refuses a token count that is %s, naming it', (_, key, value) => {
      refusedAt({ ...assistant, usage: { ...usage, [key]: value } }, `usage.${key}`, 'expected a whole number of tokens, 0 or more');
    });

    it('refuses a cost that is no object, or one of its amounts that is missing, negative or infinite', () => {
      refusedAt({ ...assistant, usage: { ...usage, cost: null } }, 'usage.cost', 'expected an object');
      refusedAt({ ...assistant, usage: { ...usage, cost: [] } }, 'usage.cost', 'expected an object');
      refusedAt({ ...assistant, usage: { ...usage, cost: { ...cost, total: undefined } } }, 'usage.cost.total', 'expected a finite number, 0 or more');
      refusedAt({ ...assistant, usage: { ...usage, cost: { ...cost, input: -0.01 } } }, 'usage.cost.input', 'expected a finite number, 0 or more');
      refusedAt({ ...assistant, usage: { ...usage, cost: { ...cost, output: Infinity } } }, 'usage.cost.output', 'expected a finite number, 0 or more');
    });

    it("refuses a tool result's toolName that is no string, and an isError that is no boolean", () => {
      refusedAt({ ...toolResult, toolName: undefined }, 'toolName', 'expected a string');
      refusedAt({ ...toolResult, isError: 'false' }, 'isError', 'expected true or false');
      refusedAt({ ...toolResult, isError: undefined }, 'isError', 'expected true or false');
    });

    it('takes only a plain object with string keys for tool call arguments, as the schema does', () => {
      const callWith = (args: unknown) => withPart(assistant, 2, { type: 'toolCall', id: 'c1', name: 'n', args });
      for (const args of [Object.create(null), { constructor: 'a key like any other' }, { __proto__: null, path: 'a' }]) {
        expect(Message.safeParse(callWith(args)).success).toBe(true);
        expect(messageShapeProblem(callWith(args))).toBeUndefined();
      }
      class Args {}
      for (const args of [new Date(0), new Map([['path', 'a']]), new Args()]) {
        refusedAt(callWith(args), 'content[2].args', 'expected a plain object (not a Date, a Map or an instance of a class)');
      }
      refusedAt(callWith({ path: 'a', [Symbol('hidden')]: 1 }), 'content[2].args', 'expected string keys only (it has a symbol key)');
    });

    it('refuses a part that is an array, even one with a type', () => {
      refusedAt(withPart(assistant, 1, Object.assign([], { type: 'text', text: 'x' })), 'content[1]', 'expected a part (an object with a type)');
    });
  });
});

describe('messageShapeProblem agrees with the schema', () => {
  const text = fc.string({ maxLength: 6 });
  const nonEmpty = fc.string({ minLength: 1, maxLength: 6 });
  const count = fc.oneof(fc.nat(1000), fc.maxSafeNat());
  const amount = fc.double({ min: 0, max: 1e6, noNaN: true });
  const usage = fc.record(
    { input: count, output: count, cacheRead: count, cacheWrite: count, totalTokens: count, cost: fc.record({ input: amount, output: amount, cacheRead: amount, cacheWrite: amount, total: amount }) },
    { requiredKeys: ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] },
  );
  const textPart = fc.record({ type: fc.constant('text'), text });
  const imagePart = fc.record({ type: fc.constant('image'), data: text, mimeType: nonEmpty });
  const filePart = fc.record({ type: fc.constant('file'), data: text, mimeType: nonEmpty, name: text }, { requiredKeys: ['type', 'data', 'mimeType'] });
  const thinkingPart = fc.record({ type: fc.constant('thinking'), thinking: text, signature: text, redacted: fc.boolean() }, { requiredKeys: ['type', 'thinking'] });
  const toolCallPart = fc.record(
    { type: fc.constant('toolCall'), id: nonEmpty, name: nonEmpty, args: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), unparsedArgs: text },
    { requiredKeys: ['type', 'id', 'name', 'args'] },
  );
  const parts = <T>(part: fc.Arbitrary<T>) => fc.array(part, { maxLength: 4 });
  const message = fc.oneof(
    fc.record({ role: fc.constant('user'), content: fc.oneof(text, parts(fc.oneof(textPart, imagePart, filePart))) }),
    fc.record(
      {
        role: fc.constant('assistant'),
        content: parts(fc.oneof(textPart, thinkingPart, toolCallPart)),
        usage,
        stopReason: fc.constantFrom('stop', 'length', 'toolUse', 'error', 'aborted'),
        model: text,
        errorMessage: text,
      },
      { requiredKeys: ['role', 'content'] },
    ),
    fc.record(
      { role: fc.constant('toolResult'), toolCallId: nonEmpty, toolName: text, content: parts(fc.oneof(textPart, imagePart)), isError: fc.boolean(), details: fc.jsonValue({ maxDepth: 2 }) },
      { requiredKeys: ['role', 'toolCallId', 'toolName', 'content', 'isError'] },
    ),
  );

  /** Values of the wrong type for most fields, and some of the right type that break a rule. */
  const WRONG = [null, undefined, 0, -1, 1.5, NaN, Infinity, 2 ** 53, '', 'x', true, [], {}, [{}], new Date(0)];
  const TYPES = ['text', 'image', 'file', 'thinking', 'toolCall', 'user', 'assistant', 'toolResult', 'bogus', 'toString', '__proto__', ''];
  const mutation = changes(['remove', 'wrong', 'empty', 'rename', 'unknownPart', 'asArray', 'extraKey', 'symbolKey']);
  const mutate = (valid: unknown, change: Change) => mutated(valid, change, { wrong: WRONG, names: TYPES });

  it('takes every message the schema takes, as generated and as read back from JSON', () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(Message.safeParse(m).success).toBe(true);
        expect(messageShapeProblem(m)).toBeUndefined();
        expect(messageShapeProblem(JSON.parse(JSON.stringify(m)))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('refuses exactly what the schema refuses after one mutation, naming the field zod names first', () => {
    const seen = { taken: 0, refused: 0 };
    fc.assert(
      fc.property(message, mutation, (valid, change) => {
        const m = mutate(valid, change);
        const parsed = Message.safeParse(m);
        const problem = messageShapeProblem(m);
        if (parsed.success) {
          seen.taken++;
          expect(problem).toBeUndefined();
        } else {
          seen.refused++;
          expect(problem?.field).toBe(zodFirstField(parsed.error.issues, '(the message)'));
          expect(problem?.reason).toMatch(/^expected /);
        }
      }),
      { numRuns: 3000 },
    );
    // Both sides of the agreement were tried, many times.
    expect(seen.taken).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(1000);
  });
});
