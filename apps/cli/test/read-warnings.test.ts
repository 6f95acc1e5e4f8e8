import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot, tiller, tillerCommand } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

// What a read skipped (a torn or corrupt line) is a warning, and warnings go to stderr for every
// command: stdout is the command's output, which a user pipes into another program.

let dir: string;
let lines: string[];
let journalLines: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-warnings-'));
  const demo = await tiller(['demo', '--dir', dir, '--delay', '0']);
  expect(demo.code).toBe(0);
  lines = (await readFile(join(dir, 'session.jsonl'), 'utf8')).trimEnd().split('\n');
  journalLines = (await readFile(join(dir, 'session.journal.jsonl'), 'utf8')).trimEnd().split('\n');
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A copy of the demo session whose last line is torn (a write cut short); returns its path and that line's number. */
async function tornSession(name: string): Promise<{ path: string; line: number }> {
  const path = join(dir, name);
  await writeFile(path, `${lines.join('\n')}\n${lines.at(-1)!.slice(0, 40)}`);
  return { path, line: lines.length + 1 };
}

/** A copy of the demo session with a line in the middle that is not JSON; returns its path and that line's number. */
async function corruptSession(name: string): Promise<{ path: string; line: number }> {
  const path = join(dir, name);
  const at = Math.floor(lines.length / 2);
  await writeFile(path, `${[...lines.slice(0, at), '{"kind":"message", garbage', ...lines.slice(at)].join('\n')}\n`);
  return { path, line: at + 1 };
}

function expectWarnedOnStderr(run: { stdout: string; stderr: string }, path: string, line: number): void {
  const file = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(run.stderr).toMatch(new RegExp(`^warning: ${file}:${line}\\b`, 'm'));
  expect(run.stdout).not.toMatch(/^warning:/m);
}

describe('read warnings are said on stderr, the same way, by every command that reads a session or journal', () => {
  it('show: a torn last line and a corrupt middle line', async () => {
    for (const { path, line } of [await tornSession('show-torn.jsonl'), await corruptSession('show-corrupt.jsonl')]) {
      const run = await tiller(['show', path]);
      expect(run.code).toBe(0);
      expectWarnedOnStderr(run, path, line);
      expect(run.stdout).toContain(`${lines.length - 1} entries`);
    }
  });

  it('replay: a torn journal line names the journal and the line, on stderr; stdout stays the timeline and verdict', async () => {
    const journal = join(dir, 'replay-torn.journal.jsonl');
    await writeFile(journal, `${journalLines.join('\n')}\n{"type":"input","seq":`);
    const run = await tiller(['replay', '-q', journal]);
    expect(run.code).toBe(0);
    expectWarnedOnStderr(run, journal, journalLines.length + 1);
    // Worded as the shell's own journal.warning words it (resumeAgent), in one place.
    expect(run.stderr).toContain(`warning: ${journal}:${journalLines.length + 1}: the line is incomplete (a write was cut off): "{\\"type\\":\\"input\\",\\"seq\\":"; skipped\n`);
    expect(run.stdout).toMatch(/^replay: identical/);
  });

  it('replay: a corrupt line in the session beside the journal is said on stderr too', async () => {
    const { path, line } = await corruptSession('replay-corrupt.jsonl');
    await writeFile(join(dir, 'replay-corrupt.journal.jsonl'), `${journalLines.join('\n')}\n`);
    const run = await tiller(['replay', '-q', path]);
    expect(run.code).toBe(0);
    expectWarnedOnStderr(run, path, line);
    expect(run.stdout).toMatch(/^replay: identical/);
  });

  it('inspect --html: a torn journal and a corrupt session are said on stderr; stdout stays the path written', async () => {
    const { path, line } = await corruptSession('inspect-corrupt.jsonl');
    const journal = join(dir, 'inspect-corrupt.journal.jsonl');
    await writeFile(journal, `${journalLines.join('\n')}\n{"type":"input","seq":`);
    const out = join(dir, 'inspect-corrupt.html');
    const run = await tiller(['inspect', path, '--html', out]);
    expect(run.code).toBe(0);
    expectWarnedOnStderr(run, path, line);
    expectWarnedOnStderr(run, journal, journalLines.length + 1);
    expect(run.stdout.trim()).toBe(out);
  });

  it('inspect, serving: a torn journal line is said on stderr once the page is served', async () => {
    const journal = join(dir, 'inspect-serve.journal.jsonl');
    await writeFile(journal, `${journalLines.join('\n')}\n{"type":"input","seq":`);
    const child = spawn(process.execPath, [...tillerCommand, 'inspect', journal], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const stderr = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          err += chunk;
          if (err.includes('until Ctrl-C')) resolve(err);
        });
        child.on('close', (code) => reject(new Error(`tiller inspect exited (${code}): ${err}`)));
      });
      expectWarnedOnStderr({ stdout: '', stderr }, journal, journalLines.length + 1);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('export: a torn or corrupt session warns on stderr and still exports what loads (stdout stays valid JSON)', async () => {
    for (const { path, line } of [await tornSession('export-torn.jsonl'), await corruptSession('export-corrupt.jsonl')]) {
      const run = await tiller(['export', path, '--format', 'json']);
      expect(run.code).toBe(0);
      expectWarnedOnStderr(run, path, line);
      const exported = JSON.parse(run.stdout) as { entries: unknown[] };
      expect(exported.entries).toHaveLength(lines.length - 1);
    }
    const { path, line } = await tornSession('export-torn-pi.jsonl');
    const toFile = await tiller(['export', path, '--format', 'pi', '-o', join(dir, 'exported-pi.jsonl')]);
    expect(toFile.code).toBe(0);
    expectWarnedOnStderr(toFile, path, line);
    expect(toFile.stdout).toMatch(/^wrote \d+ entries as pi to /);
  });

  it('compact --dry-run: the same warning, on stderr', async () => {
    const { path, line } = await corruptSession('compact-corrupt.jsonl');
    const run = await tiller(['compact', path, '--dry-run', '--keep', '400']);
    expect(run.code).toBe(0);
    expectWarnedOnStderr(run, path, line);
  });
});
