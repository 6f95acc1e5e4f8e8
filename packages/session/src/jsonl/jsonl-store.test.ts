import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantEntry, chain, userEntry } from '../../test/entries.js';
import { SessionFileError, SessionLockedError, SessionOptionsError } from '../errors/index.js';
import { createSessionLog } from '../session-log.js';
import { SESSION_FORMAT_VERSION, serializeEntry } from './format.js';
import { JsonlStore, type JsonlStoreOptions } from './jsonl-store.js';
import { upgradeSessionFile } from './upgrade-session-file.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-jsonl-'));
  file = join(dir, 'session.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeSession(entries = chain(3)): Promise<string> {
  const store = await JsonlStore.open(file, { create: { id: 's1', createdAt: '2026-01-01T00:00:00.000Z' } });
  await store.append(entries);
  await store.close();
  return readFile(file, 'utf8');
}

describe('JsonlStore: the file', () => {
  it('writes a header line with the format version, then one entry per line, kind and id first', async () => {
    const text = await writeSession();
    const lines = text.split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ type: 'tiller.session', version: SESSION_FORMAT_VERSION, id: 's1', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    expect(lines[1]!.startsWith('{"kind":"message","id":"e0",')).toBe(true);
    expect(lines.slice(1, 4).map((l) => JSON.parse(l))).toEqual(chain(3));
  });

  it('reopens with the same entries and the leaf at the last one', async () => {
    await writeSession();
    const log = createSessionLog(await JsonlStore.open(file));
    expect(log.entries()).toEqual(chain(3));
    expect(log.leafId).toBe('e2');
    await log.append([userEntry('e3', 'e2')]);
    await log.close();
    const again = await JsonlStore.open(file, { readOnly: true });
    expect(again.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(again.warnings).toEqual([]);
  });

  it('opening never changes the file', async () => {
    const text = await writeSession();
    const before = await stat(file);
    const store = await JsonlStore.open(file);
    await store.close();
    await (await JsonlStore.open(file, { readOnly: true })).close();
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('a resolved append is in the file under every durability option', async () => {
    for (const fsync of ['always', 'batch', 'never'] as const) {
      const path = join(dir, `${fsync}.jsonl`);
      const store = await JsonlStore.open(path, { fsync, batchIntervalMs: 5, create: true });
      await store.append(chain(2));
      expect((await JsonlStore.open(path, { readOnly: true })).entries).toEqual(chain(2));
      await store.append([userEntry('e2', 'e1')]);
      await store.flush();
      expect((await JsonlStore.open(path, { readOnly: true })).entries).toHaveLength(3);
      await store.close();
    }
  });

  it('rejects bad options, naming them, before it touches anything', async () => {
    const bad = async (options: unknown, message: string) => {
      const error = await JsonlStore.open(file, options as JsonlStoreOptions).catch((e: unknown) => e);
      expect(SessionOptionsError.isInstance(error) && error.message).toBe(`JsonlStore.open(${file}): option ${message}`);
    };
    await bad({ fsync: 'sometimes' }, 'fsync: Invalid option: expected one of "always"|"batch"|"never", got "sometimes"');
    await bad({ batchIntervalMs: -1 }, 'batchIntervalMs: Too small: expected number to be >=0, got -1');
    // Not read-only by being truthy: a writer that believes it only reads would take the lock.
    await bad({ readOnly: 'no' }, 'readOnly: Invalid input: expected boolean, received string, got "no"');
    await bad({ readonly: true }, 'readonly: unknown option');
    await bad({ create: { id: '' } }, 'create.id: expected a non-empty string, got ""');
    await bad({ create: { id: 7 } }, 'create.id: Invalid input: expected string, received number, got 7');
    await bad({ create: 'yes' }, 'create: expected true, false or {id?, createdAt?}, got "yes"');
    await bad({ readOnly: true, create: true }, 'create: a read-only open never creates a file');
    await bad('fast', '(options): Invalid input: expected object, received string, got "fast"');
    // Nothing was written: no session file, no lock file.
    expect(await readdir(dir)).toEqual([]);
    await expect(JsonlStore.open('' as string)).rejects.toThrow('JsonlStore.open: option path: expected the path of a session file, got ""');
  });

  it('a missing file fails with not_found, naming it, unless create says to start a session there', async () => {
    for (const options of [{}, { create: false }, { readOnly: true }]) {
      const error = await JsonlStore.open(file, options).catch((e: unknown) => e);
      expect(SessionFileError.isInstance(error) && [error.code, error.message]).toEqual([
        'not_found',
        `${file}: no session file there (to start a new session at this path, open it with the option create: true)`,
      ]);
    }
    expect(await readdir(dir)).toEqual([]);
    const nowhere = join(dir, 'missing', 'session.jsonl');
    await expect(JsonlStore.open(nowhere)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining(`${nowhere}: no session file there`) });
    await expect(JsonlStore.open(nowhere, { create: true })).rejects.toThrow(`${nowhere}: cannot create the lock file: the folder ${join(dir, 'missing')} does not exist`);
    const created = await JsonlStore.open(file, { create: { id: 'new' } });
    expect(created.header.id).toBe('new');
    await created.close();
    // create on an existing file opens it as it is.
    const reopened = await JsonlStore.open(file, { create: { id: 'other' } });
    expect(reopened.header.id).toBe('new');
    await reopened.close();
  });
});

describe('JsonlStore: damaged files', () => {
  it('skips a torn last line with a warning, and the next append starts on a clean line', async () => {
    const text = await writeSession();
    const torn = `${text}{"kind":"message","id":"e3","par`;
    await writeFile(file, torn);
    const store = await JsonlStore.open(file);
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    expect(store.warnings).toEqual([expect.objectContaining({ file, line: 5, kind: 'torn_line', message: expect.stringContaining(`${file}:5`) })]);
    // Opening left the torn bytes alone.
    expect(await readFile(file, 'utf8')).toBe(torn);
    await store.append([userEntry('e3', 'e2')]);
    await store.close();
    const again = await JsonlStore.open(file, { strict: true });
    expect(again.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(again.warnings).toEqual([]);
    await again.close();
  });

  it('a last line without its newline still loads, and the next append adds the newline', async () => {
    const text = await writeSession();
    await writeFile(file, text.slice(0, -1));
    const store = await JsonlStore.open(file);
    expect(store.entries).toHaveLength(3);
    await store.append([userEntry('e3', 'e2')]);
    await store.close();
    expect((await JsonlStore.open(file, { readOnly: true, strict: true })).entries).toHaveLength(4);
  });

  it('reports a corrupt line elsewhere by its number and skips it; strict mode fails naming file, line and field', async () => {
    const text = await writeSession(chain(4));
    const lines = text.split('\n');
    lines[2] = lines[2]!.replace('"role":"assistant"', '"role":"robot"');
    await writeFile(file, lines.join('\n'));
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e2', 'e3']);
    expect(store.warnings.map((w) => [w.line, w.kind])).toEqual([
      [3, 'corrupt_line'],
      [4, 'skipped_parent'],
    ]);
    expect(store.warnings[0]!.message).toContain(`${file}:3, field message.role`);
    expect(store.warnings[1]!.message).toBe(`${file}:4, field parentId: parent "e1" was on line 3, which was skipped; joined to "e0", the nearest kept entry on its path`);
    // The conversation loses the one message, not everything before it.
    const log = createSessionLog(store);
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e2', 'e3']);
    expect(log.roots().map((e) => e.id)).toEqual(['e0']);
    expect(log.context()).toHaveLength(3);
    await expect(JsonlStore.open(file, { readOnly: true, strict: true })).rejects.toThrow(`${file}:3, field message.role`);
  });

  it('joins the entries after a run of skipped lines to the last entry before them, through lines that are not JSON when their start is whole', async () => {
    const text = await writeSession(chain(5));
    const lines = text.split('\n');
    // e1 is refused by the schema; e2's line was cut short, but its kind, id and parentId are whole.
    lines[2] = lines[2]!.replace('"role":"assistant"', '"role":"robot"');
    lines[3] = lines[3]!.slice(0, lines[3]!.indexOf('"message":{') + 12);
    await writeFile(file, lines.join('\n'));
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.warnings.map((w) => [w.line, w.kind])).toEqual([
      [3, 'corrupt_line'],
      [4, 'corrupt_line'],
      [5, 'skipped_parent'],
    ]);
    expect(store.warnings[2]!.message).toContain('parent "e2" was on line 4, which was skipped; joined to "e0"');
    const log = createSessionLog(store);
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e3', 'e4']);
    // The file is left as it was: only the loaded entry is joined.
    expect(await readFile(file, 'utf8')).toBe(lines.join('\n'));
  });

  it('keeps the entry after a skipped line as a root when that line named no parent, or its id cannot be read', async () => {
    const text = await writeSession(chain(4));
    const lines = text.split('\n');
    lines[1] = lines[1]!.replace('"role":"user"', '"role":"robot"');
    lines[3] = '{"id": "broken", not json';
    await writeFile(file, lines.join('\n'));
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.warnings.map((w) => [w.line, w.kind])).toEqual([
      [2, 'corrupt_line'],
      [3, 'skipped_parent'],
      [4, 'corrupt_line'],
      [5, 'missing_parent'],
    ]);
    expect(store.warnings[1]!.message).toContain('parent "e0" was on line 2, which was skipped; kept as a root');
    const log = createSessionLog(store);
    expect(log.roots().map((e) => e.id)).toEqual(['e1', 'e3']);
    expect(log.path().map((e) => e.id)).toEqual(['e3']);
  });

  it('skips a line that is JSON but no object (null, a number, a list) as corrupt, and loads the lines around it', async () => {
    const text = await writeSession(chain(3));
    const lines = text.trimEnd().split('\n');
    lines.splice(2, 0, 'null', '42', '[]');
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    expect(store.warnings.map((w) => [w.kind, w.line, w.field, w.reason])).toEqual([
      ['corrupt_line', 3, '(line)', 'not a JSON object'],
      ['corrupt_line', 4, '(line)', 'not a JSON object'],
      ['corrupt_line', 5, '(line)', 'not a JSON object'],
    ]);
  });

  it('skips a line whose part type is an object ({"toString": 1}) or names a property every object has (constructor), naming the field, not a TypeError', async () => {
    const text = await writeSession(chain(2));
    const lines = text.trimEnd().split('\n');
    const types: unknown[] = [{ toString: 1 }, 'constructor', '__proto__', 'toString'];
    types.forEach((type, i) =>
      lines.push(JSON.stringify({ kind: 'message', id: `odd${i}`, parentId: 'e1', at: '2026-01-01T00:00:00.000Z', message: { role: 'assistant', content: [{ type, text: 'x' }] } })),
    );
    lines.push(JSON.stringify({ kind: 'message', id: 'e2', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'after' } }));
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    expect(store.warnings.map((w) => [w.kind, w.line, w.field])).toEqual(types.map((_, i) => ['corrupt_line', 4 + i, 'message.content[0].type']));
  });

  it('skips a message whose content parts lack what every reader relies on, naming the part and field', async () => {
    const text = await writeSession(chain(2));
    const bad: Array<[string, string]> = [
      ['{"role":"assistant","content":"hello"}', 'message.content'],
      ['{"role":"assistant","content":[{"type":"text"}]}', 'message.content[0].text'],
      ['{"role":"assistant","content":[{"type":"toolCall","id":5,"name":"x","args":{}}]}', 'message.content[0].id'],
      ['{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"x","args":"{}"}]}', 'message.content[0].args'],
      ['{"role":"user","content":[{"type":"image"},null]}', 'message.content[0].data'],
      ['{"role":"user","content":[{"type":"text","text":"ok"},null]}', 'message.content[1]'],
      ['{"role":"toolResult","toolCallId":"c","toolName":"x","isError":false,"content":[{"type":"audio"}]}', 'message.content[0].type'],
      ['{"role":"user","content":[{"type":"image","data":"aGk=","mimeType":""}]}', 'message.content[0].mimeType'],
      ['{"role":"toolResult","toolCallId":"c","isError":false,"content":[]}', 'message.toolName'],
    ];
    const lines = text.trimEnd().split('\n');
    bad.forEach(([message, _], i) => lines.push(JSON.stringify({ kind: 'message', id: `bad${i}`, parentId: 'e1', at: '2026-01-01T00:00:00.000Z', message: JSON.parse(message) })));
    lines.push(JSON.stringify({ kind: 'custom', id: 'badcustom', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', customType: 'note', message: { role: 'user', content: [{ type: 'text' }] } }));
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1']);
    expect(store.warnings.map((w) => w.kind)).toEqual(Array(bad.length + 1).fill('corrupt_line'));
    bad.forEach(([, field], i) => expect(store.warnings[i]!.message).toContain(`${file}:${i + 4}, field ${field}`));
    expect(store.warnings.at(-1)!.message).toContain('field message.content[0].text');
  });

  it('skips a line whose message the schema refuses (a tool call with an empty id), naming the line and field, and loads the lines around it', async () => {
    const text = await writeSession(chain(4));
    const lines = text.trimEnd().split('\n');
    const call = { type: 'toolCall', id: '', name: 'read_file', args: { path: 'a.txt' } };
    const bad = { kind: 'message', id: 'bad', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'reading' }, call], stopReason: 'toolUse' } };
    // After e1 (line 3): the bad line is line 4, and e2 and e3 follow it.
    lines.splice(3, 0, JSON.stringify(bad));
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(store.warnings).toEqual([
      expect.objectContaining({ kind: 'corrupt_line', file, line: 4, field: 'message.content[1].id', reason: 'expected a non-empty string' }),
    ]);
    expect(store.warnings[0]!.message).toBe(`${file}:4, field message.content[1].id: expected a non-empty string; line skipped`);
    const log = createSessionLog(store);
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(log.has('bad')).toBe(false);
    await expect(JsonlStore.open(file, { readOnly: true, strict: true })).rejects.toThrow(`${file}:4, field message.content[1].id`);
  });

  it('keeps an entry whose only fault is in a field it can do without: the field goes, with a warning, and the conversation stays whole', async () => {
    const text = await writeSession(chain(4));
    const lines = text.trimEnd().split('\n');
    // Line 3 is e1, an assistant reply: another writer left its usage without totalTokens, and a model of null.
    const e1 = JSON.parse(lines[2]!) as { message: { usage: Record<string, unknown>; model: unknown } };
    delete e1.message.usage.totalTokens;
    e1.message.model = null;
    lines[2] = JSON.stringify(e1);
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    const log = createSessionLog(store);
    // Nothing after e1 is cut off from it: the path and the context are whole.
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(log.context()).toHaveLength(4);
    expect(log.get('e1')).toMatchObject({ message: { role: 'assistant', content: [{ type: 'text', text: 'assistant e1' }], stopReason: 'stop' } });
    expect((log.get('e1') as { message: object }).message).not.toHaveProperty('usage');
    expect((log.get('e1') as { message: object }).message).not.toHaveProperty('model');
    expect(store.warnings.map((w) => [w.kind, w.line, w.field])).toEqual([
      ['dropped_field', 3, 'message.usage.totalTokens'],
      ['dropped_field', 3, 'message.model'],
    ]);
    expect(store.warnings[0]!.message).toBe(`${file}:3, field message.usage.totalTokens: expected a whole number of tokens, 0 or more; message.usage dropped, entry kept`);
    // Strict mode fails on it, as on any line the schema refuses.
    await expect(JsonlStore.open(file, { readOnly: true, strict: true })).rejects.toThrow(`${file}:3, field message.usage.totalTokens`);
  });

  it('skips a compaction line whose firstKeptEntryId is empty, naming the line and field, and loads the lines around it', async () => {
    const text = await writeSession(chain(4));
    const lines = text.trimEnd().split('\n');
    // Hand-edited: the compaction names no entry to keep from, so a reader of the context would find none.
    const bad = { kind: 'compaction', id: 'c1', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', summary: 'We read a.txt.', firstKeptEntryId: '', tokensBefore: 12000 };
    // After e1 (line 3): the bad line is line 4, and e2 and e3 follow it.
    lines.splice(3, 0, JSON.stringify(bad));
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(store.warnings).toEqual([expect.objectContaining({ kind: 'corrupt_line', file, line: 4, field: 'firstKeptEntryId', reason: 'expected a non-empty string' })]);
    expect(store.warnings[0]!.message).toBe(`${file}:4, field firstKeptEntryId: expected a non-empty string; line skipped`);
    expect(createSessionLog(store).path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    await expect(JsonlStore.open(file, { readOnly: true, strict: true })).rejects.toThrow(`${file}:4, field firstKeptEntryId: expected a non-empty string`);
  });

  it.each([
    ['a tokensAfter that is a string', { tokensAfter: '900' }, 'tokensAfter', 'tokensAfter'],
    ['compactedEntryIds that are no list', { compactedEntryIds: 'e0' }, 'compactedEntryIds', 'compactedEntryIds'],
    ['cleared without its placeholder', { cleared: { entryIds: ['e0'] } }, 'cleared.placeholder', 'cleared'],
    ['details whose file lists are strings', { details: { readFiles: 'a.txt', modifiedFiles: [] } }, 'details.readFiles', 'details'],
    ['meta that is a string', { meta: 'imported' }, 'meta', 'meta'],
  ])('keeps a compaction line with %s, without that field, naming it', async (_, change, field, dropped) => {
    const text = await writeSession(chain(2));
    const line = { kind: 'compaction', id: 'c1', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', summary: 's', firstKeptEntryId: 'e1', tokensBefore: 10, ...change };
    await writeFile(file, `${text}${JSON.stringify(line)}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'c1']);
    expect(store.entries[2]).not.toHaveProperty(dropped);
    expect(store.warnings).toEqual([expect.objectContaining({ kind: 'dropped_field', line: 4, field })]);
    expect(store.warnings[0]!.message).toMatch(new RegExp(`; ${dropped.replace(/[[\].]/g, '\\$&')} dropped, entry kept$`));
  });

  it.each([
    ['an empty at', { at: '' }, 'at'],
    ['a compaction without tokensBefore', { tokensBefore: undefined }, 'tokensBefore'],
  ])('skips a compaction line with %s, naming the field', async (_, change, field) => {
    const text = await writeSession(chain(2));
    const line = { kind: 'compaction', id: 'c1', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', summary: 's', firstKeptEntryId: 'e1', tokensBefore: 10, ...change };
    await writeFile(file, `${text}${JSON.stringify(line)}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1']);
    expect(store.warnings).toEqual([expect.objectContaining({ kind: 'corrupt_line', line: 4, field })]);
  });

  it('skips a branch summary whose fromId is empty, and keeps a message entry with an unknown origin without it', async () => {
    const text = await writeSession(chain(2));
    const summary = { kind: 'branch_summary', id: 'b1', parentId: 'e1', at: '2026-01-01T00:00:00.000Z', fromId: '', summary: 's' };
    const message = { ...userEntry('u1', 'e1'), origin: 'followUp' };
    await writeFile(file, `${text}${JSON.stringify(summary)}\n${JSON.stringify(message)}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'u1']);
    expect(store.entries[2]).not.toHaveProperty('origin');
    expect(store.warnings.map((w) => [w.kind, w.line, w.field])).toEqual([
      ['corrupt_line', 4, 'fromId'],
      ['dropped_field', 5, 'origin'],
    ]);
  });

  it('keeps what it can of a message: a bad usage or stop reason goes, a tool call with a bad name does not', async () => {
    const text = await writeSession(chain(2));
    const lines = text.trimEnd().split('\n');
    const add = (id: string, message: object) => lines.push(JSON.stringify({ kind: 'message', id, parentId: 'e1', at: '2026-01-01T00:00:00.000Z', message }));
    add('usage', { role: 'assistant', content: [], usage: { input: -1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } });
    add('stop', { role: 'assistant', content: [], stopReason: 'end_turn' });
    add('thinking', { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 7 }, { type: 'text', text: 'ok' }] });
    add('name', { role: 'assistant', content: [{ type: 'toolCall', id: 'c', name: '', args: {} }] });
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'usage', 'stop', 'thinking']);
    expect(store.warnings.map((w) => [w.kind, w.field])).toEqual([
      ['dropped_field', 'message.usage.input'],
      ['dropped_field', 'message.stopReason'],
      ['dropped_field', 'message.content[0].signature'],
      ['corrupt_line', 'message.content[0].name'],
    ]);
    expect((store.entries[4] as { message: unknown }).message).toEqual({ role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'ok' }] });
  });

  it('strict mode names the zod path of a deep schema problem', async () => {
    const entry = assistantEntry('a', null);
    const text = await writeSession([entry]);
    await writeFile(file, text.replace('"totalTokens":15', '"totalTokens":-1'));
    const error = await JsonlStore.open(file, { readOnly: true, strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionFileError);
    expect((error as SessionFileError).location).toEqual({ file, line: 2, field: 'message.usage.totalTokens' });
  });

  it('reports duplicate ids and a bad header', async () => {
    const text = await writeSession(chain(2));
    const lines = text.split('\n');
    await writeFile(file, [lines[0], lines[1], lines[1], lines[2], ''].join('\n'));
    const store = await JsonlStore.open(file, { readOnly: true });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1']);
    expect(store.warnings[0]).toMatchObject({ kind: 'repeated_id', line: 2, field: 'id' });
    expect(store.warnings[0]!.message).toBe(`${file}:2, field id: id "e0" is repeated on line 3; line skipped, the later line wins`);
    await expect(JsonlStore.open(file, { readOnly: true, strict: true })).rejects.toThrow(`${file}:3, field id: duplicate id "e0"`);
    await writeFile(file, '{"type":"session","version":3}\n');
    await expect(JsonlStore.open(file, { readOnly: true })).rejects.toThrow(`${file}:1, field type: the first line is not a session header`);
    await writeFile(file, '{"type":"tiller.session","version":99,"id":"s"}\n');
    await expect(JsonlStore.open(file, { readOnly: true })).rejects.toThrow(/format version 99 is newer/);
  });

  it('refuses a header whose createdAt is no string (an object no string can be made of), naming the field, not a TypeError in a reader that shows it', async () => {
    for (const createdAt of [{ toString: 1 }, 5, null]) {
      await writeFile(file, `${JSON.stringify({ type: 'tiller.session', version: SESSION_FORMAT_VERSION, id: 's', createdAt })}\n`);
      await expect(JsonlStore.open(file, { readOnly: true })).rejects.toThrow(SessionFileError);
      await expect(JsonlStore.open(file, { readOnly: true })).rejects.toThrow(`${file}:1, field createdAt: expected the time the session was created, as a string`);
    }
  });
});

describe('JsonlStore: a path under a file', () => {
  it('fails with not_found naming the file in the way, with or without create, and writes nothing', async () => {
    const blocker = join(dir, 'notes.txt');
    await writeFile(blocker, 'a file, not a folder');
    const under = join(blocker, 'session.jsonl');
    const plain = await JsonlStore.open(under).catch((e: unknown) => e);
    expect(SessionFileError.isInstance(plain) && [plain.code, plain.message]).toEqual(['not_found', `${under}: no session file there (${blocker} is a file, not a folder)`]);
    const creating = await JsonlStore.open(under, { create: true }).catch((e: unknown) => e);
    expect(SessionFileError.isInstance(creating) && [creating.code, creating.message]).toEqual(['not_found', `${under}: cannot create the lock file: ${blocker} is a file, not a folder`]);
    const reading = await JsonlStore.open(under, { readOnly: true }).catch((e: unknown) => e);
    expect(SessionFileError.isInstance(reading) && [reading.code, reading.message]).toEqual(['not_found', `${under}: no session file there (${blocker} is a file, not a folder)`]);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });
});

describe('JsonlStore: an empty file', () => {
  it('is refused as empty, not as a header that is not JSON, with or without create, and is left as it was', async () => {
    await writeFile(file, '');
    const said = `${file}: the file is empty, with no session header; remove it, or give a path that does not exist, to start a new session there`;
    for (const options of [{}, { create: true }, { readOnly: true }]) {
      const error = await JsonlStore.open(file, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionFileError);
      expect((error as SessionFileError).message).toBe(said);
      expect((error as SessionFileError).code).toBe('invalid');
    }
    expect(await readFile(file, 'utf8')).toBe('');
  });
});

describe('JsonlStore: a file an editor saved with a byte-order mark', () => {
  it('opens it with every entry, appends after them, and the next open has them all', async () => {
    const text = await writeSession(chain(2));
    await writeFile(file, `\uFEFF${text}`);
    const store = await JsonlStore.open(file);
    expect(store.warnings).toEqual([]);
    expect(store.entries).toEqual(chain(2));
    await store.append([userEntry('e2', 'e1', 'after the mark')]);
    await store.close();
    const again = await JsonlStore.open(file, { readOnly: true });
    expect(again.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
  });
});

describe('JsonlStore: opening in one pass', () => {
  it('reads lines with non-ASCII text, and cuts off a torn line that ends inside a character by its exact bytes', async () => {
    const entries = [userEntry('e0', null, 'naïve café: 文件を読む 🚀'), assistantEntry('e1', 'e0', 'Ελληνικά, русский, 한국어')];
    const text = await writeSession(entries);
    const partial = Buffer.from('{"kind":"message","id":"e2","parentId":"e1","message":{"role":"user","content":"文件');
    // Cut in the middle of the last three-byte character, as a write that died would leave it.
    const torn = Buffer.concat([Buffer.from(text), partial.subarray(0, partial.length - 1)]);
    await writeFile(file, torn);
    const store = await JsonlStore.open(file);
    expect(store.entries).toEqual(entries);
    expect(store.warnings).toEqual([expect.objectContaining({ line: 4, kind: 'torn_line', message: expect.stringContaining(`${file}:4`) })]);
    await store.append([userEntry('e2', 'e1', 'ещё')]);
    await store.close();
    expect(await readFile(file, 'utf8')).toBe(`${text}${serializeEntry(userEntry('e2', 'e1', 'ещё'))}\n`);
    const again = await JsonlStore.open(file, { readOnly: true, strict: true });
    expect(again.entries).toEqual([...entries, userEntry('e2', 'e1', 'ещё')]);
  });

  it('the log finds every entry through the index built while reading; a repeated id keeps its last line', async () => {
    const text = await writeSession(chain(3));
    const lines = text.split('\n');
    await writeFile(file, [lines[0], lines[1], lines[1]!.replace('user e0', 'a later line with the same id'), lines[2], lines[3], ''].join('\n'));
    const store = await JsonlStore.open(file);
    const log = createSessionLog(store);
    expect(store.warnings.map((w) => w.message)).toEqual([expect.stringContaining(':2, field id: id "e0" is repeated on line 3')]);
    expect(log.warnings).toBe(store.warnings);
    expect(log.get('e0')).toEqual(userEntry('e0', null, 'a later line with the same id'));
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    await log.append([userEntry('e3', 'e2')]);
    expect(log.get('e3')).toEqual(userEntry('e3', 'e2'));
    // The index now belongs to that log; a second log over the same store indexes the loaded entries itself.
    expect(store.takeIndex()).toBeUndefined();
    const second = createSessionLog(store);
    expect(second.entries().map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    expect(second.has('e3')).toBe(false);
    expect(second.path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    await log.close();
  });
});

describe('JsonlStore: one writer', () => {
  it('a second writer gets "session is locked"; readers are not blocked; close releases the lock', async () => {
    const first = await JsonlStore.open(file, { create: true });
    const error = await JsonlStore.open(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionLockedError);
    expect((error as Error).message).toMatch(/^session is locked: .* by process \d+/);
    expect((error as SessionLockedError).holderPid).toBe(process.pid);
    const reader = await JsonlStore.open(file, { readOnly: true });
    await expect(reader.append([userEntry('a', null)])).rejects.toMatchObject({ code: 'read_only' });
    await first.close();
    const second = await JsonlStore.open(file);
    await second.close();
  });

  it('takes over the lock of a writer that died', async () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    await writeSession();
    await writeFile(`${file}.lock`, `${deadPid} some-token\n`);
    const store = await JsonlStore.open(file);
    expect(await readFile(`${file}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    await store.close();
    await expect(stat(`${file}.lock`)).rejects.toThrow();
  });

  it('a lock file it cannot read counts as held', async () => {
    await writeFile(`${file}.lock`, 'garbage');
    await expect(JsonlStore.open(file)).rejects.toThrow(/session is locked: .* by another writer/);
  });
});

describe('JsonlStore: format versions', () => {
  const v1 = [
    JSON.stringify({ type: 'tiller.session', version: 1, id: 'old', createdAt: '2025-01-01T00:00:00.000Z' }),
    JSON.stringify({ type: 'message', id: 'a', parentId: null, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'hi' } }),
    JSON.stringify({ id: 'b', parentId: 'a', type: 'custom', timestamp: '2025-01-01T00:00:02.000Z', customType: 'note', data: { type: 'kept' } }),
    '',
  ].join('\n');

  it('opens a version 1 file read-only through the migration', async () => {
    await writeFile(file, v1);
    const store = await JsonlStore.open(file, { readOnly: true, strict: true });
    expect(store.version).toBe(1);
    expect(store.entries).toEqual([
      { kind: 'message', id: 'a', parentId: null, at: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'hi' } },
      { kind: 'custom', id: 'b', parentId: 'a', at: '2025-01-01T00:00:02.000Z', customType: 'note', data: { type: 'kept' } },
    ]);
  });

  it('refuses to write into a version 1 file, and upgradeSessionFile writes a current copy', async () => {
    await writeFile(file, v1);
    await expect(JsonlStore.open(file)).rejects.toThrow(/format version 1 can only be opened read-only; write a current copy with upgradeSessionFile/);
    const migrated = join(dir, 'migrated.jsonl');
    expect(await upgradeSessionFile(file, migrated)).toEqual({ from: 1, to: SESSION_FORMAT_VERSION });
    expect(await readFile(file, 'utf8')).toBe(v1);
    const store = await JsonlStore.open(migrated, { strict: true });
    expect(store.header).toMatchObject({ id: 'old', version: SESSION_FORMAT_VERSION });
    expect(store.entries.map((e) => e.id)).toEqual(['a', 'b']);
    await store.close();
  });
});
