import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPiSession } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import { messageHistory } from './message-history.js';
import { pi, type PiEntry } from './pi.js';
import { GENERATED_SIZE, generatedSource, sourceSession } from './source-session.js';

describe('sourceSession', () => {
  it('stands in a generated session of the same length, with a note naming the missing file, when the recording is absent', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'tiller-no-fixtures-'));
    try {
      const source = sourceSession(empty);
      expect(source.lines).toHaveLength(GENERATED_SIZE);
      expect(source.note).toContain(join(empty, 'pi-large-session.jsonl'));
      expect(source.description).toMatch(/generated session \(seed \d+/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('generatedSource', () => {
  const lines = generatedSource(17, 3000);

  it('is the same for the same seed and differs for another', () => {
    expect(generatedSource(17, 3000)).toEqual(lines);
    expect(generatedSource(18, 3000)).not.toEqual(lines);
    expect(generatedSource(17, 0)).toEqual([]);
  });

  it('is one chain that pi and Tiller both read as the same conversation', () => {
    expect(lines.map((l) => l.parentId)).toEqual([null, ...lines.slice(0, -1).map((l) => l.id)]);
    const text = [{ type: 'session', version: 3, id: 'g', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/g' }, ...lines].map((l) => JSON.stringify(l)).join('\n');
    const entries = importPiSession(text).entries;
    expect(entries).toHaveLength(lines.length);
    const piEntries = lines as unknown as PiEntry[];
    const messages = pi.buildSessionContext(piEntries, piEntries.at(-1)!.id, new Map(piEntries.map((e) => [e.id, e]))).messages;
    expect(messages.length).toBe(lines.filter((l) => l.type === 'message').length);
  });

  it('looks like a coding session: users, tool rounds with a result for every call, answers, a few thinking-level changes', () => {
    const roles = lines.flatMap((l) => (l.type === 'message' ? [(l.message as { role: string }).role] : []));
    const count = (role: string) => roles.filter((r) => r === role).length;
    expect(count('user')).toBeGreaterThan(50);
    expect(count('toolResult')).toBeGreaterThan(count('user') * 2);
    expect(count('assistant')).toBeGreaterThan(count('user') * 2);
    expect(lines.some((l) => l.type === 'thinking_level_change')).toBe(true);
    // Every call is answered: repeating the session drops nothing but the calls a cut leaves open.
    const history = messageHistory(lines, lines.length - 1);
    const calls = (ls: typeof lines) =>
      ls.flatMap((l) => {
        const content = (l.message as { content?: string | { type: string }[] } | undefined)?.content;
        return Array.isArray(content) ? content.filter((p) => p.type === 'toolCall') : [];
      }).length;
    expect(calls(history)).toBeGreaterThanOrEqual(calls(lines) - 3);
  });
});
