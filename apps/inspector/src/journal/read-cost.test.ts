/**
 * Reading a journal or a session file costs work in proportion to its lines. Time is not asserted
 * here (docs/performance.md has the measurement); the work is counted: the lines checked for
 * blankness (`String.prototype.trim`) and the array elements copied (`Array.prototype.slice`). A
 * reader that copies the lines after each line to know whether it is the last (a quadratic read)
 * copies about lines² / 2 elements.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordNotebookSession } from '../../scripts/make-journals.js';
import { readJournal } from './read-journal.js';
import { readSession } from './read-session.js';

let dir: string;
let journalText: string;
let sessionText: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-read-cost-'));
  const files = await recordNotebookSession(dir);
  journalText = await readFile(files.journalFile, 'utf8');
  sessionText = await readFile(files.sessionFile, 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** The lines `read` checks for blankness plus the array elements it copies. */
function work(read: () => unknown): number {
  let copied = 0;
  const slice = Array.prototype.slice;
  vi.spyOn(Array.prototype, 'slice').mockImplementation(function (this: unknown[], ...args: [number?, number?]) {
    const copy = slice.apply(this, args);
    copied += copy.length;
    return copy;
  });
  const trim = vi.spyOn(String.prototype, 'trim');
  try {
    read();
    return trim.mock.calls.length + copied;
  } finally {
    vi.restoreAllMocks();
  }
}

describe('the cost of reading grows with the lines, not their square', () => {
  it('reads a journal of 4,000 lines checking each line a fixed number of times', () => {
    const text = journalText.repeat(Math.ceil(4_000 / journalText.trim().split('\n').length));
    const lines = text.trim().split('\n').length;
    const journal = readJournal(`${text}\n\n`);
    expect(journal.problems).toEqual([]);
    expect(journal.lines).toBe(lines + 2);
    expect(work(() => readJournal(`${text}\n\n`))).toBeLessThanOrEqual(3 * (lines + 2));
  });

  it('reads a session file with 4,000 bad lines checking each line a fixed number of times', () => {
    const text = `${sessionText}${'{not json\n'.repeat(4_000)}`;
    expect(readSession(text, 'chat.jsonl').problems).toHaveLength(4_000);
    expect(work(() => readSession(text, 'chat.jsonl'))).toBeLessThanOrEqual(3 * text.split('\n').length);
  });

  it('still tells a torn last line, followed only by blank lines, from a bad line in the middle', () => {
    const lines = journalText.trim().split('\n');
    const torn = readJournal(`${lines.join('\n')}\n${lines[1]!.slice(0, 20)}\n \n\n`);
    expect(torn.problems.map((p) => p.message)).toEqual([`journal line ${lines.length + 1}: the last line is incomplete (a write was cut off); skipped`]);
    const middle = readJournal(`${lines[0]}\n${lines[1]!.slice(0, 20)}\n${lines.slice(1).join('\n')}\n`);
    expect(middle.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^journal line 2: not JSON/)]);
  });
});
