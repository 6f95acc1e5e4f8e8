import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { startOpenAICompatibleServer } from '@tiller/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makePiSessionText } from './pi-session.js';
import { tillerInProcess } from './in-process.js';
import { tiller } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let piText: string;
let ids: Record<string, string>;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-sessions-'));
  ({ text: piText, ids } = makePiSessionText());
  await writeFile(file('pi.jsonl'), piText);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('tiller compact on a pi session', () => {
  it('--dry-run says what leaves the context and leaves the file byte for byte as it was', async () => {
    const before = await readFile(file('pi.jsonl'));
    const run = await tiller(['compact', file('pi.jsonl'), '--dry-run', '--keep', '300']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^keepTail: [\d,]+ → [\d,]+ tokens \([\d,]+ fewer\)$/m);
    expect(run.stdout).toMatch(/^leaves the context \(\d+ entries; the log keeps them\):$/m);
    expect(run.stdout).toContain('dry run: nothing was written');
    expect((await readFile(file('pi.jsonl'))).equals(before)).toBe(true);
  });

  it('for real appends one compaction line, and pi\'s own SessionManager reopens the file with a smaller context', async () => {
    await writeFile(file('pi-real.jsonl'), piText);
    const piBefore = SessionManager.open(file('pi-real.jsonl'), dir);
    const contextBefore = piBefore.buildSessionContext().messages.length;
    const entriesBefore = piBefore.getEntries().length;

    const run = await tiller(['compact', file('pi-real.jsonl'), '--keep', '300']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/appended compaction \S+ to .*pi-real\.jsonl \(pi format\); nothing was deleted/);

    const after = await readFile(file('pi-real.jsonl'), 'utf8');
    expect(after.startsWith(piText)).toBe(true);
    const added = after.slice(piText.length).trim().split('\n');
    expect(added).toHaveLength(1);
    const entry = JSON.parse(added[0]!) as { type: string; parentId: string; firstKeptEntryId: string };
    expect(entry).toMatchObject({ type: 'compaction', parentId: ids.leaf });

    const pi = SessionManager.open(file('pi-real.jsonl'), dir);
    expect(pi.getEntries()).toHaveLength(entriesBefore + 1);
    expect(pi.getLeafId()).toBe((JSON.parse(added[0]!) as { id: string }).id);
    const context = pi.buildSessionContext().messages;
    expect(context.length).toBeLessThan(contextBefore);
    expect(context[0]).toMatchObject({ role: 'compactionSummary' });
    // The kept part ends with the leaf's message, as before.
    expect(context.at(-1)).toMatchObject({ role: 'user', content: 'Thanks. Summarize it in one line.' });
  });

  it('with --window, does nothing while the context fits', async () => {
    const before = await readFile(file('pi.jsonl'));
    const run = await tiller(['compact', file('pi.jsonl'), '--window', '200000']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^nothing to compact: the context fits the 200,000-token window/);
    expect((await readFile(file('pi.jsonl'))).equals(before)).toBe(true);
  });

  it('refuses clearToolResults for a pi session, which cannot record it', async () => {
    const run = await tiller(['compact', file('pi.jsonl'), '--strategy', 'clearToolResults']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^tiller compact: pi sessions cannot record cleared tool results/);
  });
});

describe('tiller import, show, export, sessions', () => {
  it('imports a pi session into a Tiller session that compacts in place and dry-runs without a change', async () => {
    const imported = await tiller(['import', file('pi.jsonl')]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^imported \d+ entries \(pi format 3\) into .*pi\.tiller\.jsonl$/m);
    const tillerFile = file('pi.tiller.jsonl');
    const before = await readFile(tillerFile);

    const dry = await tiller(['compact', tillerFile, '--dry-run', '--strategy', 'clearToolResults', '--keep', '200']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^tool results cleared to a placeholder \(\d+\):$/m);
    expect((await readFile(tillerFile)).equals(before)).toBe(true);

    const real = await tiller(['compact', tillerFile, '--strategy', 'clearToolResults', '--keep', '200']);
    expect(real.code).toBe(0);
    const after = await readFile(tillerFile, 'utf8');
    expect(after.startsWith(before.toString('utf8'))).toBe(true);
    expect(after.slice(before.length).trim().split('\n').map((l) => (JSON.parse(l) as { kind: string }).kind)).toEqual(['compaction']);

    const shown = await tiller(['show', tillerFile]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^◌ .*toolResult read/m);
    expect(shown.stdout).toMatch(/the model sees now: \d+ messages, about [\d,]+ tokens \(\d+ entries in context, 0 compacted out, [1-9]\d* cleared\)/);
  });

  it('show draws the branches, the label and the leaf, and which entries the model sees', async () => {
    const run = await tiller(['show', file('pi.jsonl')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('pi session');
    // Two: the branch off the first answer, and the label beside the last answer's follow-up.
    expect(run.stdout).toMatch(/2 branch points/);
    expect(run.stdout).toMatch(/├─ .*toolResult read {2}\/\/ src\/config-1\.ts/);
    expect(run.stdout).toMatch(/└─ .*user {2}"Actually, only look at config-1\."/);
    expect(run.stdout).toContain('[task]');
    expect(run.stdout).toMatch(/● .*user {2}"Thanks\. Summarize it in one line\."  ← leaf/);
    expect(run.stdout).toMatch(/the model sees now: 15 messages/);
  });

  it('show --leaf shows the context at another entry', async () => {
    const run = await tiller(['show', file('pi.jsonl'), '--leaf', ids.branch!]);
    expect(run.code).toBe(0);
    // Three entries; the branch leaves the first answer's tool call without its result, so the
    // context closes it with one the session writes in (the model never sees a call unanswered).
    expect(run.stdout).toMatch(/the model sees now: 4 messages, about \d+ tokens \(3 entries in context/);
  });

  it('export --format pi writes a file pi reopens with the same entries; json and html carry the session', async () => {
    const piOut = await tiller(['export', file('pi.tiller.jsonl'), '--format', 'pi', '-o', file('back.jsonl')]);
    expect(piOut.code).toBe(0);
    const original = SessionManager.open(file('pi.jsonl'), dir);
    const back = SessionManager.open(file('back.jsonl'), dir);
    // The compaction appended above comes along; everything pi wrote is there as it was.
    expect(back.getEntries().slice(0, original.getEntries().length)).toEqual(original.getEntries());

    const json = await tiller(['export', file('pi.jsonl')]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { leafId: string; entries: unknown[]; context: unknown[] };
    expect(parsed.leafId).toBe(ids.leaf);
    expect(parsed.context).toHaveLength(15);

    const html = await tiller(['export', file('pi.jsonl'), '--format', 'html']);
    expect(html.code).toBe(0);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('Thanks. Summarize it in one line.');
    expect(html.stdout).not.toContain('<script');
  });

  it('import reads a pi session saved with a UTF-8 byte-order mark', async () => {
    await writeFile(file('bom-pi.jsonl'), `\uFEFF${piText}`);
    const run = await tillerInProcess(['import', file('bom-pi.jsonl')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await tillerInProcess(['show', file('bom-pi.tiller.jsonl')])).code).toBe(0);
  });

  it('sessions lists the session files of a folder, newest first, journals left out', async () => {
    await writeFile(file('x.journal.jsonl'), '');
    const run = await tiller(['sessions', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/entries {2}pi {4} {2}"Find where the config is parsed/);
    expect(run.stdout).toMatch(/entries {2}tiller {2}"Find where the config/);
    expect(run.stdout).not.toContain('x.journal.jsonl');
  });
});

describe('bad session input', () => {
  const cases: Array<{ args: string[]; code: number; message: RegExp }> = [
    { args: ['show', 'DIR/none.jsonl'], code: 3, message: /^tiller show: .*none\.jsonl: no such session file$/ },
    { args: ['show', 'DIR/x.journal.jsonl'], code: 3, message: /^tiller show: .*x\.journal\.jsonl: the file is empty$/ },
    { args: ['show', 'DIR/pi.jsonl', '--leaf', 'nope'], code: 2, message: /^tiller show: --leaf nope: no entry "nope" in session .*pi\.jsonl$/ },
    { args: ['compact', 'DIR/pi.jsonl', '--window', '0'], code: 2, message: /^tiller compact: --window must be a positive whole number, got "0"$/ },
    { args: ['compact', 'DIR/pi.jsonl', '--strategy', 'summarize'], code: 2, message: /^tiller compact: say which model: --model/ },
    { args: ['compact', 'DIR/pi.jsonl', '--strategy', 'summarize', '--model', 'openai:gpt-4o'], code: 2, message: /^tiller compact: OPENAI_API_KEY is not set/ },
    { args: ['compact', 'DIR/pi.jsonl', '--strategy', 'shrink'], code: 2, message: /^tiller compact: --strategy must be one of summarize, clearToolResults, keepTail, got "shrink"$/ },
    { args: ['export', 'DIR/pi.jsonl', '--format', 'pdf'], code: 2, message: /^tiller export: --format must be one of pi, html, json, got "pdf"$/ },
    { args: ['import', 'DIR/pi.tiller.jsonl'], code: 3, message: /^tiller import: .*already a Tiller session; nothing to import$/ },
    { args: ['export', 'DIR/pi.jsonl', '-o', 'DIR/no-such-folder/x.json'], code: 3, message: /^tiller export: .*no-such-folder\/x\.json: cannot write the file: the folder .*no-such-folder does not exist$/ },
    { args: ['sessions', 'DIR/none'], code: 3, message: /^tiller sessions: .*none: no such folder$/ },
  ];
  it.each(cases)('tiller $args', async ({ args, code, message }) => {
    const run = await tillerInProcess(args.map((a) => a.replace('DIR', dir)), { env: { OPENAI_API_KEY: undefined } });
    expect(run.code, run.stderr).toBe(code);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});

describe('tiller compact --strategy summarize', () => {
  it('has the model write the summary over HTTP and appends it as the compaction', async () => {
    const server = await startOpenAICompatibleServer({ script: [{ stream: { text: '## Goal\nExplain where the config is parsed.\n## Progress\nRead config-1 to config-4.' } }] });
    try {
      await writeFile(file('pi-summary.jsonl'), piText);
      const run = await tiller(['compact', file('pi-summary.jsonl'), '--strategy', 'summarize', '--keep', '300', '--base-url', server.baseURL, '--model', 'qwen3']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^summarize: [\d,]+ → [\d,]+ tokens/m);
      // The summarizer was asked about the conversation that leaves the context.
      expect(JSON.stringify(server.requests[0]!.body.messages)).toContain('Reading part 1.');
      const pi = SessionManager.open(file('pi-summary.jsonl'), dir);
      const summary = pi.buildSessionContext().messages[0] as { role: string; summary: string };
      expect(summary.role).toBe('compactionSummary');
      expect(summary.summary).toContain('Explain where the config is parsed.');
    } finally {
      await server.close();
    }
  });
});
