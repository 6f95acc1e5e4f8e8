import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tillerInProcess } from './in-process.js';
import { spawn } from 'node:child_process';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { repoRoot, tiller, tillerCommand } from './tiller.js';

// Each case starts a real node process; several run at once.
vi.setConfig({ testTimeout: 60_000 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-bad-'));
  await writeFile(join(dir, 'garbage.jsonl'), 'this is not json\n');
  await writeFile(join(dir, 'empty.journal.jsonl'), '');
  await writeFile(join(dir, 'empty.jsonl'), '');
  await writeFile(join(dir, 'old.journal.jsonl'), `${JSON.stringify({ type: 'header', format: 'tiller.journal', version: 1 })}\n`);
  // A journal a later release wrote, beside a session `run` resumes.
  await writeFile(join(dir, 'new.journal.jsonl'), `${JSON.stringify({ type: 'header', format: 'tiller.journal', version: 5 })}\n`);
  for (const [name, line] of [['null', 'null'], ['number', '42'], ['list', '[1]']]) await writeFile(join(dir, `${name}.jsonl`), `${line}\n`);
  await writeFile(join(dir, 'bad.journal.jsonl'), `${JSON.stringify({ type: 'header', format: 'tiller.journal', version: 3 })}\n`);
  // Headers whose time is an object no string can be made of: shown as text, it was a bare TypeError (exit 1).
  await writeFile(join(dir, 'odd-created.jsonl'), `${JSON.stringify({ type: 'tiller.session', version: 2, id: 's', createdAt: { toString: 1 } })}\n`);
  await writeFile(join(dir, 'odd-pi-time.jsonl'), `${JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: { toString: 1 }, cwd: '/' })}\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** One clear line on stderr, nothing that looks like a stack trace. */
function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('bad input gives one line on stderr and a documented exit code', () => {
  const cases: Array<{ args: string[]; code: number; message: RegExp }> = [
    { args: ['bogus'], code: 2, message: /^tiller: unknown command "bogus"; the commands are demo, / },
    { args: ['help', 'bogus'], code: 2, message: /^tiller: unknown command "bogus"; the commands are demo, / },
    { args: ['--bogus'], code: 2, message: /^tiller: unknown option --bogus;/ },
    { args: ['demo', '--bogus'], code: 2, message: /^tiller demo: unknown option --bogus \(see tiller demo --help\)$/ },
    { args: ['demo', 'extra'], code: 2, message: /^tiller demo: unexpected argument "extra"/ },
    { args: ['demo', '--window'], code: 2, message: /^tiller demo: option --window needs a value/ },
    { args: ['demo', '--window', 'lots'], code: 2, message: /^tiller demo: --window must be a positive whole number, got "lots"$/ },
    { args: ['demo', '--dir', 'DIR/garbage.jsonl'], code: 3, message: /^tiller demo: --dir .*garbage\.jsonl: a file, not a folder$/ },
    { args: ['demo', '--dir', 'DIR/garbage.jsonl/demo'], code: 3, message: /^tiller demo: --dir .*garbage\.jsonl\/demo: .*garbage\.jsonl is a file, not a folder$/ },
    // --fork names an entry of an existing session: with no --session or --continue there is none yet.
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--fork', 'q1', 'hi'], code: 2, message: /^tiller run: --fork q1 needs the session it forks from: give --session FILE, --continue or --resume$/ },
    { args: ['inspect', 'DIR/garbage.jsonl', '--port', '99999'], code: 2, message: /^tiller inspect: --port must be a port number from 0 to 65535, got "99999"$/ },
    // A negative number is a value, said to be wrong by the option's own rule, not an option without a value.
    { args: ['demo', '--delay', '-5'], code: 2, message: /^tiller demo: --delay must not be negative, got "-5"$/ },
    { args: ['run', '-w', '-3', 'hi'], code: 2, message: /^tiller run: --window must be a positive whole number, got "-3"$/ },
    { args: ['compact', 'DIR/garbage.jsonl', '--keep', '-1'], code: 2, message: /^tiller compact: --keep must be a positive whole number, got "-1"$/ },
    { args: ['run', '--window', '-3', 'hi'], code: 2, message: /^tiller run: --window must be a positive whole number, got "-3"$/ },
    { args: ['inspect', 'DIR/garbage.jsonl', '--port', '-1'], code: 2, message: /^tiller inspect: --port must be a port number from 0 to 65535, got "-1"$/ },
    { args: ['run', '--session', '-x', 'hi'], code: 2, message: /^tiller run: option --session needs a value; one that starts with a dash goes after = \(--session=-x\)/ },
    { args: ['diagram', '--format', 'png'], code: 2, message: /^tiller diagram: --format must be one of .*got "png"$/ },
    { args: ['replay'], code: 2, message: /^tiller replay: missing <journal\|session>/ },
    { args: ['replay', 'DIR/missing.jsonl'], code: 3, message: /^tiller replay: .*missing\.jsonl: no such journal or session file$/ },
    { args: ['replay', 'DIR'], code: 3, message: /^tiller replay: .*: is a folder, not a journal or session file$/ },
    { args: ['replay', 'DIR/garbage.jsonl'], code: 3, message: /^tiller replay: .*garbage\.jsonl:1: not a Tiller journal or session/ },
    { args: ['replay', 'DIR/empty.journal.jsonl'], code: 3, message: /^tiller replay: .*empty\.journal\.jsonl: the file is empty$/ },
    { args: ['replay', 'DIR/old.journal.jsonl'], code: 3, message: /^tiller replay: .*old\.journal\.jsonl:1: the journal is in version 1 of tiller\.journal; this shell reads versions 3 and 4/ },
    { args: ['replay', 'DIR/new.journal.jsonl'], code: 3, message: /^tiller replay: .*new\.journal\.jsonl:1: the journal is in version 5 of tiller\.journal; this shell reads versions 3 and 4/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/new.jsonl', 'hi'], code: 3, message: /^tiller run: .*new\.journal\.jsonl:1: the journal is in version 5 of tiller\.journal; this shell reads versions 3 and 4/ },
    { args: ['replay', 'DIR/bad.journal.jsonl'], code: 3, message: /^tiller replay: .*bad\.journal\.jsonl:1: not a journal line: .*model/ },
    // A first line that is JSON but no object (null, a number, a list) is a bad header like any other.
    ...['show', 'replay', 'export', 'import', 'compact'].map((command) => ({ args: [command, 'DIR/null.jsonl'], code: 3, message: new RegExp(`^tiller ${command}: .*null\\.jsonl:1: not a Tiller (journal )?or (pi )?session`) })),
    { args: ['show', 'DIR/number.jsonl'], code: 3, message: /^tiller show: .*number\.jsonl:1: not a Tiller or pi session/ },
    { args: ['replay', 'DIR/list.jsonl'], code: 3, message: /^tiller replay: .*list\.jsonl:1: not a Tiller journal or session/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/null.jsonl', 'hi'], code: 3, message: /^tiller run: .*null\.jsonl:1: not a Tiller or pi session/ },
    ...['show', 'export'].map((command) => ({ args: [command, 'DIR/odd-created.jsonl'], code: 3, message: new RegExp(`^tiller ${command}: .*odd-created\\.jsonl:1, field createdAt: expected the time the session was created, as a string$`) })),
    ...['show', 'export', 'import'].map((command) => ({ args: [command, 'DIR/odd-pi-time.jsonl'], code: 3, message: new RegExp(`^tiller ${command}: .*odd-pi-time\\.jsonl:1, field timestamp: expected the time the session was created, as a string$`) })),
    // A path under a file: the file in the way is named, never a raw ENOTDIR.
    { args: ['show', 'DIR/garbage.jsonl/s.jsonl'], code: 3, message: /^tiller show: .*garbage\.jsonl\/s\.jsonl: no such session file \(.*garbage\.jsonl is a file, not a folder\)$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/garbage.jsonl/s.jsonl', 'hi'], code: 3, message: /^tiller run: .*garbage\.jsonl\/s\.jsonl: cannot create the lock file: .*garbage\.jsonl is a file, not a folder$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/empty.jsonl', 'hi'], code: 3, message: /^tiller run: .*empty\.jsonl: the file is empty, with no session header; remove it, or give a path that does not exist, to start a new session there$/ },
  ];
  it.each(cases)('tiller $args', async ({ args, code, message }) => {
    const run = await tillerInProcess(args.map((a) => a.replace('DIR', dir)));
    expect(run.code, run.stderr).toBe(code);
    expectOneLine(run.stderr, message);
    expect(run.stdout).toBe('');
  });
});

describe('--fork beside a journal of another version', () => {
  it('is refused before anything is written, naming both versions', async () => {
    const sessionFile = join(dir, 'forked.jsonl');
    const log = createSessionLog(await JsonlStore.open(sessionFile, { create: true }));
    await log.append([{ id: 'q1', parentId: null, at: '2026-01-01T00:00:00.000Z', kind: 'message', message: { role: 'user', content: 'first question' } }]);
    await log.close();
    const journalFile = join(dir, 'forked.journal.jsonl');
    await writeFile(journalFile, `${JSON.stringify({ type: 'header', format: 'tiller.journal', version: 5 })}\n`);
    const before = { session: await readFile(sessionFile, 'utf8'), journal: await readFile(journalFile, 'utf8') };
    const run = await tillerInProcess(['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', sessionFile, '--fork', 'q1', 'hi']);
    expect(run.code, run.stderr).toBe(3);
    expectOneLine(run.stderr, /^tiller run: .*forked\.journal\.jsonl:1: the journal is in version 5 of tiller\.journal; this shell reads versions 3 and 4/);
    expect({ session: await readFile(sessionFile, 'utf8'), journal: await readFile(journalFile, 'utf8') }).toEqual(before);
  });
});

describe('the real process gives the same line and exit code', () => {
  const spawned: Array<{ args: string[]; code: number; message: RegExp }> = [
    { args: ['demo', '--bogus'], code: 2, message: /^tiller demo: unknown option --bogus \(see tiller demo --help\)$/ },
    { args: ['replay', 'DIR/missing.jsonl'], code: 3, message: /^tiller replay: .*missing\.jsonl: no such journal or session file$/ },
    { args: ['show', 'DIR/garbage.jsonl'], code: 3, message: /^tiller show: .*garbage\.jsonl:1: not a session file \(the first line is not JSON\)$/ },
  ];
  it.concurrent.each(spawned)('tiller $args', async ({ args, code, message }) => {
    const run = await tiller(args.map((a) => a.replace('DIR', dir)));
    expect(run.code, run.stderr).toBe(code);
    expectOneLine(run.stderr, message);
    expect(run.stdout).toBe('');
  });
});

describe('help and version', () => {
  it('--version prints the version', async () => {
    const run = await tiller(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('every command takes --version (and -V) too, printing the version', async () => {
    const top = await tillerInProcess(['--version']);
    for (const args of [['demo', '--version'], ['run', '--version'], ['show', '-V'], ['replay', 'missing.jsonl', '--version']]) {
      const run = await tillerInProcess(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toBe(top.stdout);
      expect(run.stderr).toBe('');
    }
  });

  it('help COMMAND prints that command\'s help', async () => {
    const run = await tillerInProcess(['help', 'compact']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: tiller compact/);
  });

  it('--help lists the commands and the exit codes; every command has its own --help', async () => {
    const run = await tiller(['--help']);
    expect(run.code).toBe(0);
    const names = [...run.stdout.matchAll(/^ {2}(\w+) {2,}/gm)].map((m) => m[1]!);
    expect(names).toContain('demo');
    expect(run.stdout).toContain('Exit codes: 0 ok, 1 the work failed');
    const helps = await Promise.all(names.map((name) => tillerInProcess([name, '--help'])));
    for (const [i, help] of helps.entries()) {
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: tiller ${names[i]}`));
      expect(help.stdout).toContain('-h, --help');
    }
  });
});

describe('tiller sessions', () => {
  it('names a file whose first line is null as not a session, with the file and line', async () => {
    const run = await tillerInProcess(['sessions', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/not readable: .*null\.jsonl:1: not a Tiller or pi session/);
    expect(run.stdout).not.toContain('Cannot read properties');
  });
});

describe('a closed stderr', () => {
  it('keeps the documented exit code: the error line has nowhere to go, the code still says what went wrong', async () => {
    const child = spawn(process.execPath, [...tillerCommand, 'bogus'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    // Nobody reads what it writes there: its write of the error line fails with EPIPE.
    child.stderr.destroy();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
  });
});
