import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession, type RecordedFiles } from '../../scripts/make-journals.js';
import { resolveInspectorSource } from './resolve-source.js';

let dir: string;
let files: RecordedFiles;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-resolve-'));
  files = await recordNotebookSession(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('resolveInspectorSource', () => {
  it('finds the journal beside a session file and the session beside a journal', async () => {
    expect(await resolveInspectorSource(files.sessionFile)).toEqual({ journal: files.journalFile, session: files.sessionFile, name: 'notebook.jsonl' });
    expect(await resolveInspectorSource(files.journalFile)).toEqual({ journal: files.journalFile, session: files.sessionFile, name: 'notebook.journal.jsonl' });
  });

  it('takes a file a live run has not written yet as what its name says', async () => {
    expect(await resolveInspectorSource(join(dir, 'later.jsonl'), { waitForJournal: true })).toEqual({
      journal: join(dir, 'later.journal.jsonl'),
      session: join(dir, 'later.jsonl'),
      name: 'later.jsonl',
    });
    expect(await resolveInspectorSource(join(dir, 'later.journal.jsonl'), { waitForJournal: true })).toEqual({
      journal: join(dir, 'later.journal.jsonl'),
      session: undefined,
      name: 'later.journal.jsonl',
    });
  });

  it('says what a file is not', async () => {
    const junk = join(dir, 'junk.jsonl');
    await writeFile(junk, 'hello\n');
    await expect(resolveInspectorSource(junk)).rejects.toThrow(/junk\.jsonl: line 1 is not JSON: this is neither a Tiller journal nor a session file/);
    await writeFile(junk, '{"type":"something"}\n');
    await expect(resolveInspectorSource(junk)).rejects.toThrow(/neither a journal header nor a session header \(type "something"\)/);
    await expect(resolveInspectorSource(join(dir, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: no such file/);
    const lonely = join(dir, 'lonely.jsonl');
    await writeFile(lonely, `${(await readFile(files.sessionFile, 'utf8')).split('\n')[0]}\n`);
    await expect(resolveInspectorSource(lonely)).rejects.toThrow(/is a session file, but its journal .*lonely\.journal\.jsonl is not there/);
  });
});

describe('resolveInspectorSource: files it used to refuse with a wrong reason', () => {
  it('reads a journal and a session file saved with a byte-order mark', async () => {
    const marked = join(dir, 'marked');
    await mkdir(marked);
    const journal = join(marked, 'notebook.journal.jsonl');
    const session = join(marked, 'notebook.jsonl');
    await writeFile(journal, `\uFEFF${await readFile(files.journalFile, 'utf8')}`);
    await writeFile(session, `\uFEFF${await readFile(files.sessionFile, 'utf8')}`);
    expect(await resolveInspectorSource(journal)).toEqual({ journal, session, name: 'notebook.journal.jsonl' });
    expect(await resolveInspectorSource(session)).toEqual({ journal, session, name: 'notebook.jsonl' });
  });

  it('takes an empty file as a journal with no run yet', async () => {
    const empty = join(dir, 'empty.journal.jsonl');
    await writeFile(empty, '');
    expect(await resolveInspectorSource(empty)).toEqual({ journal: empty, session: undefined, name: 'empty.journal.jsonl' });
  });

  it('reads a journal whose header line is longer than one read', async () => {
    const long = join(dir, 'long.journal.jsonl');
    const [header, ...rest] = (await readFile(files.journalFile, 'utf8')).split('\n');
    const longHeader = header!.replace('"createdAt"', `"note":"${'é'.repeat(40_000)}","createdAt"`);
    expect(Buffer.byteLength(longHeader)).toBeGreaterThan(65_536);
    await writeFile(long, [longHeader, ...rest].join('\n'));
    expect(await resolveInspectorSource(long)).toEqual({ journal: long, session: undefined, name: 'long.journal.jsonl' });
  });

  it('says a directory is a directory', async () => {
    const folder = join(dir, 'folder.journal.jsonl');
    await mkdir(folder);
    await expect(resolveInspectorSource(folder)).rejects.toThrow(/folder\.journal\.jsonl is a directory: give a journal, or a session file with its journal beside it$/);
  });
});
