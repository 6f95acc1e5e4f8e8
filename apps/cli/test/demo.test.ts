import { statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tillerInProcess } from './in-process.js';
import { limitFileSize, nodeBelow } from './file-size-limit.js';
import { startTiller, tiller, type TillerRun } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let demo: TillerRun;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-demo-'));
  demo = await tiller(['demo', '--dir', dir, '--delay', '0']);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('tiller demo', () => {
  it('runs the scripted coding task to the end and its journal replays identically', () => {
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('● turn completed after 7 tool rounds');
    expect(demo.stdout).toMatch(/^replay: identical \(\d+ inputs/m);
  });

  it('shows the turn as it flows: states, tool calls with durations, approvals, the steer and the follow-up, a gauge', () => {
    const out = demo.stdout;
    for (const state of ['◆ steering', '◆ calling', '◆ tools.running', '◆ tools.awaitingApproval']) expect(out).toContain(state);
    expect(out).toMatch(/✓ read_file README\.md {2}\d+\.\d ms/);
    expect(out).toContain('? edit_file src/slugify.ts asks for approval');
    expect(out).toContain('↳ steering message joined the context (tool_batch)');
    expect(out).toContain('↳ follow-up joined the context (follow_up)');
    expect(out).toMatch(/context \[[█░]{20}\] [\d,]+ \/ 2,000 tokens/);
    // Piped output is plain: no colour, no spinner frames.
    expect(out).not.toContain('\u001b[');
  });

  it('compacts inside the tool loop and says how many tokens it saved', () => {
    const line = demo.stdout.split('\n').find((l) => l.startsWith('⇣ compacted'));
    expect(line).toMatch(/^⇣ compacted mid-round \(summarize\): ([\d,]+) → ([\d,]+) tokens; \d+ entries left the context$/);
    const [, before, after] = /([\d,]+) → ([\d,]+)/.exec(line!)!;
    expect(Number(after!.replace(/,/g, ''))).toBeLessThan(Number(before!.replace(/,/g, '')));
  });

  it('really edited the workspace files, with the steer heeded (the default path is unchanged)', async () => {
    const source = await readFile(join(dir, 'workspace/src/slugify.ts'), 'utf8');
    expect(source).toContain('maxLength === undefined || slug.length <= maxLength) return slug;');
    expect(await readFile(join(dir, 'workspace/CHANGELOG.md'), 'utf8')).toContain('- slugify(title, { maxLength })');
    expect(await readFile(join(dir, 'workspace/src/slugify.test.ts'), 'utf8')).toContain("test('cuts at a word boundary'");
  });

  it('leaves a session whose log keeps every entry, the compaction appended', async () => {
    const lines = (await readFile(join(dir, 'session.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { kind?: string; type?: string; message?: { role: string } });
    expect(lines[0]).toMatchObject({ type: 'tiller.session' });
    const entries = lines.slice(1);
    expect(entries.filter((e) => e.kind === 'compaction')).toHaveLength(1);
    // prompt, steer, follow-up
    expect(entries.filter((e) => e.kind === 'message' && e.message?.role === 'user')).toHaveLength(3);
  });

  it('ends with one line and exit 1 when the journal stops growing at its steer (before: the refused steer was an unhandled rejection: a stack trace, the session left locked)', async () => {
    // The reply the steer comes after, as the run above journaled it: that line still fits, the steer's does not.
    const lines = (await readFile(join(dir, 'session.journal.jsonl'), 'utf8')).split('\n');
    const steerAt = lines.findIndex((l) => l.includes('"type":"steer"'));
    expect(lines[steerAt - 1]).toContain('"type":"llm.done"');
    const replyBytes = Buffer.byteLength(lines[steerAt - 1]!) + 1;
    const other = await mkdtemp(join(tmpdir(), 'tiller-cli-demo-'));
    try {
      const run = startTiller(['demo', '--dir', other, '--delay', '100'], { fileSizeKib: 1_000_000 });
      let code: number | null;
      try {
        // The reply is streaming (a part every 100 ms): nothing is written until it ends.
        await run.printed(/model call 2…/);
        limitFileSize(nodeBelow(run.child.pid!), statSync(join(other, 'session.journal.jsonl')).size + replyBytes + 20);
        code = await new Promise((resolve) => run.child.on('close', resolve));
      } finally {
        run.kill();
      }
      const { stdout, stderr } = run.output();
      expect(stdout).toContain('» steer: ');
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tiller demo: .*session\.journal\.jsonl: cannot append the journal's input line: EFBIG: file too large, write$/)]);
      expect(code).toBe(1);
      expect((await readdir(other)).filter((name) => name.includes('.lock'))).toEqual([]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('refuses a folder that already holds a demo, with exit code 2', async () => {
    const again = await tiller(['demo', '--dir', dir, '--delay', '0']);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toEqual([`tiller demo: ${dir} already holds a demo session; give an empty or new folder`]);
  });
});

describe('tiller replay', () => {
  it('replays the demo journal with the timeline and exits 0', async () => {
    const run = await tiller(['replay', join(dir, 'session.journal.jsonl')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('segment 1  from an empty session');
    expect(run.stdout).toMatch(/\d+ {2}compaction\.done {3}compacted \d+ → \d+ tokens/);
    expect(run.stdout).toMatch(/^replay: identical \(1 segment, \d+ inputs, \d+ effects; no model call, no tool run\)$/m);
  });

  it('finds the journal from the session file beside it', async () => {
    const run = await tiller(['replay', '--quiet', join(dir, 'session.jsonl')]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toMatch(/^replay: identical/);
  });

  it('exits 1 and names the first divergence of a tampered journal: an approval turned into a denial', async () => {
    const lines = (await readFile(join(dir, 'session.journal.jsonl'), 'utf8')).trim().split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"approval.decided"'));
    const line = JSON.parse(lines[at]!) as { seq: number; input: { decisions: Array<Record<string, unknown>> } };
    line.input.decisions = line.input.decisions.map((d) => ({ toolCallId: d.toolCallId, decision: 'deny', rationale: 'edited later' }));
    lines[at] = JSON.stringify(line);
    const tampered = join(dir, 'tampered.journal.jsonl');
    await writeFile(tampered, `${lines.join('\n')}\n`);
    const run = await tiller(['replay', tampered]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^replay: diverged in segment 1 at input ${line.seq} \\(approval\\.decided\\): `, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^ +${line.seq} {2}approval\\.decided {2}deny .*✗ diverges$`, 'm'));
  });

  it('exits 1 when an input was taken out: the inputs after it no longer fit', async () => {
    const lines = (await readFile(join(dir, 'session.journal.jsonl'), 'utf8')).trim().split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"tools.done"'));
    const seq = (JSON.parse(lines[at]!) as { seq: number }).seq;
    lines.splice(at, 1);
    const tampered = join(dir, 'cut.journal.jsonl');
    await writeFile(tampered, `${lines.join('\n')}\n`);
    const run = await tiller(['replay', '-q', tampered]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^replay: diverged in segment 1 at input ${seq + 1} `, 'm'));
  });
});

describe('tiller show on the demo session', () => {
  it('loads what a torn session file holds and says on stderr what it skipped', async () => {
    const text = await readFile(join(dir, 'session.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const torn = join(dir, 'torn.jsonl');
    await writeFile(torn, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);
    const run = await tiller(['show', torn]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: .*torn\.jsonl:\d+: /m);
    expect(run.stdout).not.toMatch(/^warning:/m);
    expect(run.stdout).toContain(`${lines.length - 2} entries`);
  });

  it('compact on a torn file warns as show does, and says the torn last line was cut, not that nothing was deleted', async () => {
    const text = await readFile(join(dir, 'session.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const torn = join(dir, 'torn-compact.jsonl');
    await writeFile(torn, `${lines.join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);
    const dry = await tillerInProcess(['compact', torn, '--dry-run', '--keep', '400']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(new RegExp(`^warning: .*torn-compact\\.jsonl:${lines.length + 1}: the last line is incomplete`, 'm'));
    const run = await tillerInProcess(['compact', torn, '--keep', '400']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: .*torn-compact\.jsonl:\d+: the last line is incomplete/m);
    expect(run.stdout).toMatch(new RegExp(`appended compaction \\S+ to .*torn-compact\\.jsonl \\(tiller format\\); the torn last line \\(line ${lines.length + 1}, never a whole entry\\) was cut off, nothing else was deleted`));
    expect(run.stdout).not.toMatch(/; nothing was deleted/);
    const after = await readFile(torn, 'utf8');
    expect(after.startsWith(`${lines.join('\n')}\n`)).toBe(true);
  });
});

describe('files an editor saved with a UTF-8 byte-order mark', () => {
  it('every command reads past the mark, as the session and journal readers do', async () => {
    const bom = '\uFEFF';
    await writeFile(join(dir, 'bom.jsonl'), bom + (await readFile(join(dir, 'session.jsonl'), 'utf8')));
    await writeFile(join(dir, 'bom.journal.jsonl'), bom + (await readFile(join(dir, 'session.journal.jsonl'), 'utf8')));
    const entries = /^\d+ entries/m.exec((await tillerInProcess(['show', join(dir, 'session.jsonl')])).stdout)![0];
    const runs = {
      show: await tillerInProcess(['show', join(dir, 'bom.jsonl')]),
      replaySession: await tillerInProcess(['replay', '-q', join(dir, 'bom.jsonl')]),
      replayJournal: await tillerInProcess(['replay', '-q', join(dir, 'bom.journal.jsonl')]),
      export: await tillerInProcess(['export', join(dir, 'bom.jsonl'), '--format', 'json', '-o', join(dir, 'bom.json')]),
      compact: await tillerInProcess(['compact', join(dir, 'bom.jsonl'), '--dry-run', '--keep', '400']),
    };
    for (const [name, run] of Object.entries(runs)) {
      expect(run.stderr, name).toBe('');
      expect(run.code, name).toBe(0);
    }
    expect(runs.show.stdout).toMatch(new RegExp(`^${entries}`, 'm'));
    expect(runs.replaySession.stdout).toMatch(/^replay: identical/);
    expect(runs.replayJournal.stdout).toMatch(/^replay: identical/);
  });
});
