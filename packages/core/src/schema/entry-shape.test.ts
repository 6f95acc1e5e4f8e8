import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changes, mutated, type Change } from '../../test/mutate-value.js';
import { zodFirstField } from '../../test/zod-first-field.js';
import { Entry } from './entry.js';
import { entryShapeProblem } from './entry-shape.js';

const base = { id: 'e2', parentId: 'e1', at: '2026-01-01T00:00:00.000Z' };
const message = { ...base, kind: 'message', message: { role: 'user', content: 'hello' }, origin: 'prompt' };
const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 };
const compaction = {
  ...base,
  kind: 'compaction',
  summary: 'We read a.txt.',
  firstKeptEntryId: 'e1',
  tokensBefore: 12000,
  tokensAfter: 900,
  compactedEntryIds: ['e0'],
  cleared: { entryIds: ['e1'], placeholder: '[cleared]' },
  stripThinking: true,
  details: { readFiles: ['a.txt'], modifiedFiles: [] },
  provenance: { strategy: 'summarize', summarizerModel: 'openai/gpt', summarizerUsage: usage, midRound: false },
};
const branchSummary = { ...base, kind: 'branch_summary', fromId: 'e9', summary: 'Tried b.txt.', details: { readFiles: [], modifiedFiles: ['b.txt'] } };
const custom = { ...base, kind: 'custom', customType: 'note', data: { any: [1, null] }, message: { role: 'user', content: [{ type: 'text', text: 'a note' }] } };

/** Refused by the schema and by the check, which names `field` and says `reason`. */
function refusedAt(entry: unknown, field: string, reason: string) {
  expect(Entry.safeParse(entry).success).toBe(false);
  expect(entryShapeProblem(entry)).toEqual({ field, reason });
}

describe('entryShapeProblem', () => {
  it.each([
    ['a message entry', message],
    ['a compaction with every optional field', compaction],
    ['a compaction with only what it must hold', { ...base, kind: 'compaction', summary: '', firstKeptEntryId: 'e1', tokensBefore: 0 }],
    ['a branch summary', branchSummary],
    ['a custom entry with a message', custom],
    ['a custom entry with nothing but its type', { ...base, kind: 'custom', customType: 'label' }],
    ['a root with meta', { ...message, parentId: null, meta: { pi: { version: 3 } } }],
  ])('finds nothing wrong with %s (which the schema takes too)', (_, entry) => {
    expect(Entry.safeParse(entry).success).toBe(true);
    expect(entryShapeProblem(entry)).toBeUndefined();
  });

  it.each([[null], [undefined], ['entry'], [7], [[]], [[message]]])('refuses %j as no entry at all', (value) => {
    refusedAt(value, '(the entry)', 'expected an object');
  });

  it('names the kind first when it is none of the four, as the schema does, before any other field', () => {
    refusedAt({ id: '', kind: 'note' }, 'kind', 'expected message, compaction, branch_summary or custom');
    refusedAt({ ...message, kind: undefined }, 'kind', 'expected message, compaction, branch_summary or custom');
    refusedAt({ ...message, kind: 'toString' }, 'kind', 'expected message, compaction, branch_summary or custom');
  });

  it('refuses the fields every entry has: id, parentId, at, meta', () => {
    refusedAt({ ...message, id: '' }, 'id', 'expected a non-empty string');
    refusedAt({ ...message, parentId: '' }, 'parentId', 'expected a non-empty string or null');
    refusedAt({ ...message, parentId: undefined }, 'parentId', 'expected a non-empty string or null');
    refusedAt({ ...message, at: '' }, 'at', 'expected a non-empty string');
    refusedAt({ ...message, at: 1767225600000 }, 'at', 'expected a non-empty string');
    refusedAt({ ...message, meta: 'imported' }, 'meta', 'expected an object');
    refusedAt({ ...message, meta: null }, 'meta', 'expected an object');
    refusedAt({ ...message, meta: ['a'] }, 'meta', 'expected an object');
    refusedAt({ ...message, meta: new Date(0) }, 'meta', 'expected a plain object (not a Date, a Map or an instance of a class)');
    refusedAt({ ...message, meta: { [Symbol('s')]: 1 } }, 'meta', 'expected string keys only (it has a symbol key)');
  });

  it("refuses a message entry's message by its field, and an origin outside the three", () => {
    refusedAt({ ...message, message: undefined }, 'message', 'expected an object');
    refusedAt({ ...message, message: { role: 'assistant', content: [{ type: 'toolCall', id: '', name: 'x', args: {} }] } }, 'message.content[0].id', 'expected a non-empty string');
    refusedAt({ ...message, origin: 'followUp' }, 'origin', 'expected prompt, steer or follow_up when present');
    refusedAt({ ...message, origin: null }, 'origin', 'expected prompt, steer or follow_up when present');
  });

  describe('a compaction', () => {
    it.each([
      ['a summary that is no string', { summary: null }, 'summary', 'expected a string'],
      ['an empty firstKeptEntryId', { firstKeptEntryId: '' }, 'firstKeptEntryId', 'expected a non-empty string'],
      ['no tokensBefore', { tokensBefore: undefined }, 'tokensBefore', 'expected a number of tokens (finite, 0 or more)'],
      ['a tokensBefore that is a string', { tokensBefore: '12000' }, 'tokensBefore', 'expected a number of tokens (finite, 0 or more)'],
      ['a negative tokensBefore', { tokensBefore: -1 }, 'tokensBefore', 'expected a number of tokens (finite, 0 or more)'],
      ['a tokensBefore that is NaN', { tokensBefore: NaN }, 'tokensBefore', 'expected a number of tokens (finite, 0 or more)'],
      ['a tokensAfter that is infinite', { tokensAfter: Infinity }, 'tokensAfter', 'expected a number of tokens (finite, 0 or more) when present'],
      ['compactedEntryIds that are no list', { compactedEntryIds: 'e0' }, 'compactedEntryIds', 'expected an array of strings when present'],
      ['a compacted id that is no string', { compactedEntryIds: ['e0', 3] }, 'compactedEntryIds[1]', 'expected a string'],
      ['cleared that is no object', { cleared: ['e1'] }, 'cleared', 'expected an object when present'],
      ['cleared without its ids', { cleared: { placeholder: 'x' } }, 'cleared.entryIds', 'expected an array of strings'],
      ['cleared without its placeholder', { cleared: { entryIds: [] } }, 'cleared.placeholder', 'expected a string'],
      ['a stripThinking that is no boolean', { stripThinking: 'yes' }, 'stripThinking', 'expected true or false when present'],
      ['details without modifiedFiles', { details: { readFiles: [] } }, 'details.modifiedFiles', 'expected an array of strings'],
      ['details with a read file that is no string', { details: { readFiles: [null], modifiedFiles: [] } }, 'details.readFiles[0]', 'expected a string'],
      ['provenance that is a string', { provenance: 'summarize' }, 'provenance', 'expected an object when present'],
      ['provenance with an empty strategy', { provenance: { strategy: '' } }, 'provenance.strategy', 'expected a non-empty string'],
      ['a summarizer model that is no string', { provenance: { strategy: 's', summarizerModel: 5 } }, 'provenance.summarizerModel', 'expected a string when present'],
      ['a summarizer usage with a fraction', { provenance: { strategy: 's', summarizerUsage: { ...usage, output: 0.5 } } }, 'provenance.summarizerUsage.output', 'expected a whole number of tokens, 0 or more'],
      ['a midRound that is no boolean', { provenance: { strategy: 's', midRound: 1 } }, 'provenance.midRound', 'expected true or false when present'],
    ])('refuses %s', (_, change, field, reason) => refusedAt({ ...compaction, ...change }, field, reason));

    it('names the first bad field in the schema order', () => {
      refusedAt({ ...compaction, at: '', firstKeptEntryId: '' }, 'at', 'expected a non-empty string');
      refusedAt({ ...compaction, firstKeptEntryId: '', tokensBefore: -1 }, 'firstKeptEntryId', 'expected a non-empty string');
      refusedAt({ ...compaction, stripThinking: 0, tokensAfter: -1 }, 'tokensAfter', 'expected a number of tokens (finite, 0 or more) when present');
    });
  });

  describe('a branch summary', () => {
    it.each([
      ['an empty fromId', { fromId: '' }, 'fromId', 'expected a non-empty string'],
      ['no summary', { summary: undefined }, 'summary', 'expected a string'],
      ['details that are a list', { details: ['a.txt'] }, 'details', 'expected an object when present'],
      ['details without readFiles', { details: { modifiedFiles: [] } }, 'details.readFiles', 'expected an array of strings'],
    ])('refuses %s', (_, change, field, reason) => refusedAt({ ...branchSummary, ...change }, field, reason));
  });

  describe('a custom entry', () => {
    it.each([
      ['an empty customType', { customType: '' }, 'customType', 'expected a non-empty string'],
      ['a message of null', { message: null }, 'message', 'expected an object'],
      ['a message the schema refuses', { message: { role: 'user', content: [{ type: 'text' }] } }, 'message.content[0].text', 'expected a string'],
    ])('refuses %s', (_, change, field, reason) => refusedAt({ ...custom, ...change }, field, reason));
  });

  it('takes keys the schema does not name, and any data on a custom entry, as zod does', () => {
    for (const entry of [{ ...compaction, note: 1 }, { ...custom, data: undefined }, { ...custom, data: null, message: undefined }, { ...message, meta: Object.create(null) }]) {
      expect(Entry.safeParse(entry).success).toBe(true);
      expect(entryShapeProblem(entry)).toBeUndefined();
    }
  });
});

describe('entryShapeProblem agrees with the schema', () => {
  const text = fc.string({ maxLength: 6 });
  const nonEmpty = fc.string({ minLength: 1, maxLength: 6 });
  const tokens = fc.oneof(fc.nat(100_000), fc.double({ min: 0, max: 1e9, noNaN: true }));
  const strings = fc.array(text, { maxLength: 3 });
  const count = fc.nat(1000);
  const usage = fc.record({ input: count, output: count, cacheRead: count, cacheWrite: count, totalTokens: count });
  const fileLists = fc.record({ readFiles: strings, modifiedFiles: strings });
  const textPart = fc.record({ type: fc.constant('text'), text });
  const toolCallPart = fc.record({ type: fc.constant('toolCall'), id: nonEmpty, name: nonEmpty, args: fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }) });
  const msg = fc.oneof(
    fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(textPart, { maxLength: 2 })) }),
    fc.record({ role: fc.constant('assistant'), content: fc.array(fc.oneof(textPart, toolCallPart), { maxLength: 2 }), usage }, { requiredKeys: ['role', 'content'] }),
    fc.record({ role: fc.constant('toolResult'), toolCallId: nonEmpty, toolName: text, content: fc.array(textPart, { maxLength: 2 }), isError: fc.boolean() }),
  );
  const meta = fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
  const baseFields = { id: nonEmpty, parentId: fc.option(nonEmpty), at: nonEmpty, meta };
  const baseKeys = ['id', 'parentId', 'at', 'kind'] as const;
  const entry = fc.oneof(
    fc.record({ ...baseFields, kind: fc.constant('message'), message: msg, origin: fc.constantFrom('prompt', 'steer', 'follow_up') }, { requiredKeys: [...baseKeys, 'message'] }),
    fc.record(
      {
        ...baseFields,
        kind: fc.constant('compaction'),
        summary: text,
        firstKeptEntryId: nonEmpty,
        tokensBefore: tokens,
        tokensAfter: tokens,
        compactedEntryIds: strings,
        cleared: fc.record({ entryIds: strings, placeholder: text }),
        stripThinking: fc.boolean(),
        details: fileLists,
        provenance: fc.record({ strategy: nonEmpty, summarizerModel: text, summarizerUsage: usage, midRound: fc.boolean() }, { requiredKeys: ['strategy'] }),
      },
      { requiredKeys: [...baseKeys, 'summary', 'firstKeptEntryId', 'tokensBefore'] },
    ),
    fc.record({ ...baseFields, kind: fc.constant('branch_summary'), fromId: nonEmpty, summary: text, details: fileLists }, { requiredKeys: [...baseKeys, 'fromId', 'summary'] }),
    fc.record({ ...baseFields, kind: fc.constant('custom'), customType: nonEmpty, data: fc.jsonValue({ maxDepth: 2 }), message: msg }, { requiredKeys: [...baseKeys, 'customType'] }),
  );

  /** Values of the wrong type for most fields, and some of the right type that break a rule. */
  const WRONG = [null, undefined, 0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, '', 'x', true, false, [], ['x'], [1], {}, [{}], new Date(0)];
  const NAMES = ['message', 'compaction', 'branch_summary', 'custom', 'prompt', 'steer', 'follow_up', 'user', 'text', 'toString', '__proto__', ''];
  const mutation = changes(['remove', 'wrong', 'empty', 'rename', 'asArray', 'extraKey', 'symbolKey']);
  const mutate = (valid: unknown, change: Change) => mutated(valid, change, { wrong: WRONG, names: NAMES });

  it('takes every entry the schema takes, of every kind, as generated and as read back from JSON', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(entry, (e) => {
        kinds.add(e.kind);
        expect(Entry.safeParse(e).success).toBe(true);
        expect(entryShapeProblem(e)).toBeUndefined();
        expect(entryShapeProblem(JSON.parse(JSON.stringify(e)))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
    expect([...kinds].sort()).toEqual(['branch_summary', 'compaction', 'custom', 'message']);
  });

  it('refuses exactly what the schema refuses after one mutation, naming the field zod names first', () => {
    const seen = { taken: 0, refused: 0 };
    fc.assert(
      fc.property(entry, mutation, (valid, change) => {
        const e = mutate(valid, change);
        const parsed = Entry.safeParse(e);
        const problem = entryShapeProblem(e);
        if (parsed.success) {
          seen.taken++;
          expect(problem).toBeUndefined();
        } else {
          seen.refused++;
          expect(problem?.field).toBe(zodFirstField(parsed.error.issues, '(the entry)'));
          expect(problem?.reason).toMatch(/^expected /);
        }
      }),
      { numRuns: 4000 },
    );
    // Both sides of the agreement were tried, many times.
    expect(seen.taken).toBeGreaterThan(400);
    expect(seen.refused).toBeGreaterThan(1500);
  });
});
