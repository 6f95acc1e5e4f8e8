import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectorOptionsError } from '../errors/inspector-options-error.js';
import { writeInspectorHtml } from './write-inspector-html.js';

let dir: string;
let journal: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-write-html-'));
  // An empty journal is one no run has written yet: a source the page opens.
  journal = join(dir, 'chat.journal.jsonl');
  await writeFile(journal, '');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The error `writeInspectorHtml(journal, out)` rejects with. */
async function refusal(out: unknown): Promise<unknown> {
  return writeInspectorHtml(journal, out as string).then(
    (path) => expect.unreachable(`wrote ${path}`),
    (error: unknown) => error,
  );
}

describe('writeInspectorHtml: where it cannot write', () => {
  it('names the folder that does not exist, and the path it was to write', async () => {
    const out = join(dir, 'none', 'inner', 'page.html');
    const error = await refusal(out);
    expect(InspectorOptionsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ option: 'out', message: `writeInspectorHtml: option out: cannot write ${out}: the folder ${join(dir, 'none', 'inner')} does not exist; create it first` });
  });

  it('says so for a folder given as the file, a file where a folder should be, and a path that is not a string', async () => {
    expect(await refusal(dir)).toMatchObject({ code: 'invalid_options', message: `writeInspectorHtml: option out: cannot write ${dir}: it is a folder; give the path of a file in it` });
    const file = join(dir, 'chat.journal.jsonl', 'page.html');
    expect(await refusal(file)).toMatchObject({ code: 'invalid_options', message: `writeInspectorHtml: option out: cannot write ${file}: ${journal} is a file, not a folder` });
    expect(await refusal(42)).toMatchObject({ code: 'invalid_options', message: 'writeInspectorHtml: option out: expected the path of the HTML file to write, got 42' });
    expect(await readdir(dir)).toEqual(['chat.journal.jsonl']);
  });
});
