import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonlStore } from './jsonl/jsonl-store.js';
import { isSessionText, labelsOf, readSessionText, SessionFileError } from './text.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-session-text-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const at = '2026-01-01T00:00:00.000Z';
const header = JSON.stringify({ type: 'tiller.session', version: 2, id: 's', createdAt: at });
const user = (id: string, parentId: string | null, content = id) => JSON.stringify({ kind: 'message', id, parentId, at, message: { role: 'user', content } });
const label = (id: string, targetId: string, text?: string) =>
  JSON.stringify({ kind: 'custom', id, parentId: 'a', at, customType: 'tiller.label', data: text === undefined ? { targetId } : { targetId, label: text } });

describe('readSessionText', () => {
  it('reads text as JsonlStore.open reads the file: non-ASCII text, damage past it and a torn end alike', async () => {
    const text = `\uFEFF${[header, user('a', null, 'Grüße, 你好 🌍'), `${user('b', 'a', 'ß'.repeat(50)).slice(0, 60)}`, user('c', 'b', 'é'), user('d', 'c').slice(0, 20)].join('\n')}`;
    const path = join(dir, 'chat.jsonl');
    await writeFile(path, text);
    const store = await JsonlStore.open(path, { readOnly: true });
    const read = readSessionText(text, path);
    await store.close();
    expect(read.entries).toEqual(store.entries);
    expect(read.warnings).toEqual(store.warnings);
    expect(read.header).toEqual(store.header);
    expect(read.entries.map((e) => [e.id, e.parentId])).toEqual([['a', null], ['c', 'a']]);
    expect(read.warnings.map((w) => [w.kind, w.line])).toEqual([['corrupt_line', 3], ['skipped_parent', 4], ['torn_line', 5]]);
  });

  it('throws a SessionFileError naming the file and line 1 when the text is no session', () => {
    expect(() => readSessionText('{"type":"header","format":"tiller.journal"}\n', 'run.journal.jsonl')).toThrow(SessionFileError);
    expect(() => readSessionText('{"type":"header","format":"tiller.journal"}\n', 'run.journal.jsonl')).toThrow(/^run\.journal\.jsonl:1, field type: /);
  });
});

describe('isSessionText', () => {
  it('tells a session file from a journal or anything else by its first line', () => {
    expect(isSessionText(`${header}\n${user('a', null)}\n`)).toBe(true);
    expect(isSessionText(`\uFEFF${header}`)).toBe(true);
    expect(isSessionText('{"type":"header","format":"tiller.journal"}\n')).toBe(false);
    expect(isSessionText('null\n')).toBe(false);
    expect(isSessionText('not json')).toBe(false);
    expect(isSessionText('')).toBe(false);
  });
});

describe('labelsOf', () => {
  it('gives each entry its latest label; a blank or missing label clears it; a label of no target changes nothing', () => {
    const noTarget = JSON.stringify({ kind: 'custom', id: 'l0', parentId: 'a', at, customType: 'tiller.label', data: { label: 'lost' } });
    const lines = [header, user('a', null), label('l1', 'a', ' first '), noTarget, label('l2', 'a', 'second'), label('l3', 'b', 'kept'), label('l4', 'a', '  '), label('l5', 'b'), label('l6', 'a', 'last')];
    const { entries } = readSessionText(`${lines.join('\n')}\n`, 'chat.jsonl');
    const after = (id: string) => [...labelsOf(entries.slice(0, entries.findIndex((e) => e.id === id) + 1))];
    expect(after('l0')).toEqual([['a', 'first']]);
    expect(after('l3')).toEqual([['a', 'second'], ['b', 'kept']]);
    expect(after('l4')).toEqual([['b', 'kept']]);
    expect(after('l5')).toEqual([]);
    expect([...labelsOf(entries)]).toEqual([['a', 'last']]);
  });
});

describe('@tiller/session/text runs without Node', () => {
  it('imports no Node module and uses no Buffer, through every module it reaches', () => {
    const src = dirname(fileURLToPath(import.meta.url));
    const seen = new Set<string>();
    const found: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      if (/\bBuffer\b/.test(code.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ''))) found.push(`${file}: Buffer`);
      for (const [, specifier] of code.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
        if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
        else if (!specifier!.startsWith('@tiller/') && specifier !== 'zod') found.push(`${file}: ${specifier}`);
      }
    };
    visit(join(src, 'text.ts'));
    expect(seen.size).toBeGreaterThan(5);
    expect(found).toEqual([]);
  });
});
