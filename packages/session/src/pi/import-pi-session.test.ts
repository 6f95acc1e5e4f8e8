import { buildContext, Entry, LOST_RESULT_NOTE } from '@tiller/core';
import { generatePiSession, readFixture, recordedFixtures } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { contextDifferences, piContext } from '../../test/pi-reference.js';
import { CustomTypes } from '../custom-types.js';
import { PiImportError } from '../errors/index.js';
import { exportPiSession } from './export-pi-session.js';
import { importPiSession } from './import-pi-session.js';

const recorded = recordedFixtures();

/** Format 1 sessions: generated ones always, the recorded ones when they are there. */
const sessions: { name: string; text: string }[] = [
  ...[1, 2, 3].map((seed) => ({ name: `generated session ${seed}`, text: generatePiSession({ seed, format: 1 }).text })),
  ...(recorded.available ? recorded.names.map((name) => ({ name, text: readFixture(name) })) : []),
];

describe('importPiSession on pi format 1 sessions', () => {
  for (const { name, text } of sessions) {
    it(`${name}: builds the context pi builds`, () => {
      const imported = importPiSession(text, { source: name });
      expect(imported.version).toBe(1);
      expect(imported.warnings).toEqual([]);
      // Format 1 is one chain, so the whole list is the path to the leaf.
      expect(contextDifferences(buildContext(imported.entries), piContext(text))).toEqual([]);
    });

    it(`${name}: import, export, import gives the same entries, and pi reads the export as the original`, () => {
      const imported = importPiSession(text);
      const exported = exportPiSession(imported.entries, { header: imported.header });
      const again = importPiSession(exported);
      expect(again.version).toBe(3);
      expect(again.entries).toEqual(imported.entries);
      expect(again.header).toEqual({ ...imported.header, version: 3 });
      // pi's own view of the exported file is its view of the original, field for field.
      expect(piContext(exported)).toEqual(piContext(text));
    });

    it(`${name}: entries re-parsed by the Entry schema export and import unchanged`, () => {
      const imported = importPiSession(text);
      // A zod parse keeps only what the schema knows: pi's own fields must be inside it (meta.pi).
      const reparsed = imported.entries.map((e) => Entry.parse(e));
      expect(reparsed).toEqual(imported.entries);
      expect(reparsed.some((e) => e.meta?.pi !== undefined)).toBe(true);
      const exported = exportPiSession(reparsed, { header: imported.header });
      expect(exported).toBe(exportPiSession(imported.entries, { header: imported.header }));
      expect(importPiSession(exported).entries).toEqual(imported.entries);
      expect(piContext(exported)).toEqual(piContext(text));
    });
  }

  const generated = generatePiSession({ seed: 4, format: 1 });

  it('starts the context with the latest compaction summary and keeps shell commands as custom entries', () => {
    const imported = importPiSession(generated.text);
    const compactions = imported.entries.filter((e) => e.kind === 'compaction');
    expect(compactions).toHaveLength(generated.counts.compactions);
    expect(compactions.length).toBeGreaterThan(1);
    const context = buildContext(imported.entries);
    expect(context).toHaveLength(piContext(generated.text).length);
    const first = context[0]!;
    expect(first.role).toBe('user');
    expect(JSON.stringify(first.content)).toContain(JSON.stringify(compactions.at(-1)!.summary).slice(1, -1));
    const bash = imported.entries.filter((e) => e.kind === 'custom' && e.customType === CustomTypes.piMessage);
    expect(bash).toHaveLength(generated.counts.bashExecutions);
  });

  it('gives format 1 entries stable ids from their line numbers', () => {
    const a = importPiSession(generated.text);
    expect(a.entries[0]!.id).toBe('line-2');
    expect(a.entries[0]!.parentId).toBeNull();
    expect(a.entries[1]!.parentId).toBe('line-2');
    expect(importPiSession(generated.text).entries.map((e) => e.id)).toEqual(a.entries.map((e) => e.id));
    expect(a.leafId).toBe(a.entries.at(-1)!.id);
  });

  it('keeps assistant usage, stop reason and model in Tiller fields', () => {
    const imported = importPiSession(generated.text);
    const assistants = imported.entries.flatMap((e) => (e.kind === 'message' && e.message.role === 'assistant' ? [e.message] : []));
    expect(assistants.map((m) => m.stopReason)).toContain('aborted');
    const firstCall = assistants.find((m) => m.stopReason === 'toolUse')!;
    const line = generated.text.split('\n').map((l) => (l ? JSON.parse(l) : null)).find((l) => l?.message?.stopReason === 'toolUse');
    const { input, output, cacheRead, cacheWrite } = line.message.usage;
    // Format 1 has no totalTokens: the import counts input, output and cache tokens.
    expect(line.message.usage.totalTokens).toBeUndefined();
    expect(firstCall.usage).toMatchObject({ input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });
    expect(firstCall.model).toBe(`${line.message.provider}/${line.message.model}`);
  });
});

describe('importPiSession on the recorded pi sessions', () => {
  if (!recorded.available) {
    it.skip(`skipped: ${recorded.reason}`, () => {});
    return;
  }

  it('pi-before-compaction.jsonl: 448 messages, the latest compaction summary first', () => {
    const imported = importPiSession(readFixture('pi-before-compaction.jsonl'));
    const compactions = imported.entries.filter((e) => e.kind === 'compaction');
    expect(compactions).toHaveLength(2);
    const context = buildContext(imported.entries);
    // pi's 446, and an error result for each of the two calls the session leaves unanswered (an
    // aborted message, a run that stopped mid-tool): a provider refuses a call without its result.
    expect(context).toHaveLength(448);
    expect(context.filter((m) => m.role === 'toolResult' && m.content[0]?.type === 'text' && m.content[0].text === LOST_RESULT_NOTE)).toHaveLength(2);
    const first = context[0]!;
    expect(first.role).toBe('user');
    expect(JSON.stringify(first.content)).toContain(compactions[1]!.summary.slice(0, 40));
    const bash = imported.entries.filter((e) => e.kind === 'custom' && e.customType === CustomTypes.piMessage);
    expect(bash).toHaveLength(3);
  });

  it('pi-large-session.jsonl: keeps assistant usage, stop reason and model in Tiller fields', () => {
    const imported = importPiSession(readFixture('pi-large-session.jsonl'));
    const assistants = imported.entries.flatMap((e) => (e.kind === 'message' && e.message.role === 'assistant' ? [e.message] : []));
    expect(assistants.map((m) => m.stopReason)).toContain('aborted');
    const firstCall = assistants.find((m) => m.stopReason === 'toolUse')!;
    // This older pi wrote no totalTokens: the import counts input, output and cache tokens.
    expect(firstCall.usage).toMatchObject({ input: 3, output: 191, cacheRead: 0, cacheWrite: 1684, totalTokens: 1878 });
    expect(firstCall.model).toBe('anthropic/claude-sonnet-4-5');
  });
});

describe('importPiSession: bad input', () => {
  const header = JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' });
  const user = (id: string, parentId: string | null, text = 'hi') =>
    JSON.stringify({
      type: 'message',
      id,
      parentId,
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { role: 'user', content: text, timestamp: 1 },
    });

  it('reads a file that starts with a byte-order mark as the same file without it', () => {
    const text = `${header}\n${user('a', null)}\n`;
    const marked = importPiSession(`\uFEFF${text}`);
    expect(marked.warnings).toEqual([]);
    expect(marked).toEqual(importPiSession(text));
  });

  it('needs a session header', () => {
    expect(() => importPiSession(user('a', null), { source: 'x.jsonl' })).toThrow(/x\.jsonl:1, field type: a pi session starts with/);
  });

  it('refuses a header whose timestamp is no string, naming the field, not a TypeError in a reader that shows it', () => {
    for (const timestamp of [{ toString: 1 }, 5]) {
      const odd = JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp, cwd: '/' });
      expect(() => importPiSession([odd, user('a', null)].join('\n'), { source: 'x.jsonl' })).toThrow(
        expect.objectContaining({ name: 'PiImportError', location: { file: 'x.jsonl', line: 1, field: 'timestamp' } }),
      );
    }
  });

  it('refuses a format it does not know', () => {
    const future = JSON.stringify({ type: 'session', version: 9, id: 's', timestamp: 't' });
    expect(() => importPiSession(future)).toThrow(/field version: pi session format 9/);
  });

  it('names the line of a duplicate id and of a missing parent', () => {
    expect(() => importPiSession([header, user('a', null), user('a', null)].join('\n'))).toThrow(
      expect.objectContaining({ name: 'PiImportError', location: { file: 'pi session', line: 3, field: 'id' } }),
    );
    expect(() => importPiSession([header, user('a', 'nope')].join('\n'))).toThrow(/:2, field parentId: parent "nope"/);
  });

  it('names the field of a message Tiller cannot hold', () => {
    const bad = JSON.stringify({
      type: 'message',
      id: 'a',
      parentId: null,
      timestamp: 't',
      message: { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [{ type: 'video' }], isError: false },
    });
    const error = (() => {
      try {
        importPiSession([header, bad].join('\n'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PiImportError);
    expect((error as PiImportError).location).toEqual({ file: 'pi session', line: 2, field: 'message.content[0].type' });
  });

  it('reads a part or entry type that names a property every object has (constructor, __proto__) as any unknown type, not a TypeError', () => {
    const at = { id: 'a', parentId: null, timestamp: '2026-01-01T00:00:01.000Z' };
    for (const type of ['constructor', '__proto__', 'toString']) {
      // An unknown part type: the entry's check names it, as it names `video`.
      for (const message of [
        { role: 'assistant', content: [{ type, text: 'x' }] },
        { role: 'custom', customType: 'note', content: [{ type }], display: true },
      ]) {
        const line = JSON.stringify({ type: 'message', ...at, message });
        expect(() => importPiSession([header, line].join('\n'))).toThrow(expect.objectContaining({ name: 'PiImportError', location: { file: 'pi session', line: 2, field: 'message.content[0].type' } }));
      }
      // An unknown entry type: kept whole, as pi's other entry types are.
      const [entry] = importPiSession([header, JSON.stringify({ type, ...at, note: 1 })].join('\n')).entries;
      expect(entry).toMatchObject({ kind: 'custom', customType: CustomTypes.piEntry, data: { type, note: 1 } });
    }
  });

  it('imports a shell command or summary whose text fields are JSON objects (no string can be made of {"toString": 1}) with their JSON as the text', () => {
    const at = { id: 'a', parentId: null, timestamp: '2026-01-01T00:00:01.000Z' };
    const odd = { toString: 1 };
    const text = (message: object) => {
      const [entry] = importPiSession([header, JSON.stringify({ type: 'message', ...at, message })].join('\n')).entries;
      const part = entry!.kind === 'custom' && Array.isArray(entry!.message?.content) ? entry!.message.content[0] : undefined;
      return typeof part === 'object' && part?.type === 'text' ? part.text : '';
    };
    expect(text({ role: 'bashExecution', command: odd, output: odd, exitCode: 0, truncated: true, fullOutputPath: odd })).toBe(
      'Ran `{"toString":1}`\n```\n{"toString":1}\n```\n\n[Output truncated. Full output: {"toString":1}]',
    );
    expect(text({ role: 'compactionSummary', summary: odd })).toContain('{"toString":1}');
    expect(text({ role: 'branchSummary', summary: odd })).toContain('{"toString":1}');
    // A string is the text as it was.
    expect(text({ role: 'bashExecution', command: 'ls', output: 'a.txt', exitCode: 0 })).toBe('Ran `ls`\n```\na.txt\n```');
    // The same value as a header's version, or a format 1 compaction's index of its first kept entry.
    const v1 = JSON.stringify({ type: 'session', id: 's1', timestamp: 't' });
    expect(() => importPiSession(JSON.stringify({ type: 'session', id: 's1', timestamp: 't', version: odd }))).toThrow(/:1, field version: pi session format \{"toString":1\} is not one/);
    const compaction = JSON.stringify({ type: 'compaction', timestamp: 't', summary: 's', firstKeptEntryIndex: odd, tokensBefore: 1 });
    expect(importPiSession([v1, compaction].join('\n')).entries[0]).toMatchObject({ kind: 'compaction', firstKeptEntryId: 'missing-{"toString":1}' });
  });

  it('skips a line that is not JSON with a warning, as pi does', () => {
    const text = [header, user('a', null), '{"type":"mess', user('b', 'a')].join('\n');
    const imported = importPiSession(text);
    expect(imported.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(imported.warnings).toEqual([expect.objectContaining({ line: 3, kind: 'corrupt_line' })]);
    const torn = importPiSession([header, user('a', null), '{"type":"mess'].join('\n'));
    expect(torn.warnings).toEqual([expect.objectContaining({ line: 3, kind: 'torn_line' })]);
  });
});
