import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlStore } from '@tiller/session';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@tiller/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { makePiSessionText } from './pi-session.js';
import { tillerInPty } from './pty.js';
import { tiller } from './tiller.js';

// The `tiller` command whose files stop growing for real: the program runs under a file size limit
// (EFBIG), then again without one.

vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let server: OpenAICompatibleServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-disk-full-'));
  await mkdir(join(dir, 'workspace'));
  await writeFile(join(dir, 'workspace', 'big.txt'), 'b'.repeat(6_000));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

it('tiller run on a session whose file cannot grow: one line naming the file and what to do, exit 1; run again with room, the turn carries on', async () => {
  const read = (id: string) => ({ stream: { text: 'Reading.', toolCalls: [{ id, name: 'read_file', args: { path: 'big.txt' } }] } });
  server = await startOpenAICompatibleServer({ script: [read('call_1'), read('call_2'), read('call_3'), { stream: { text: 'Carried on.' } }, { stream: { text: 'Going on.' } }] });
  const session = join(dir, 'chat.jsonl');
  const journal = join(dir, 'chat.journal.jsonl');
  const args = ['run', '--base-url', server.baseURL, '--model', 'qwen3', '--workspace', join(dir, 'workspace'), '--session', session, 'read it'];
  const env = { TILLER_API_KEY: 'sk-test', TILLER_HOME: join(dir, 'home') };

  const full = await tiller(args, { env, fileSizeKib: 16 });
  expect(full.code).toBe(1);
  // Before: `tiller run: AgentBrokenError: the agent stopped: EFBIG: file too large, write`.
  expect(full.stderr.trim().split('\n')).toEqual([
    `tiller run: ${journal}: cannot append the journal's input line: EFBIG: file too large, write; the session keeps what was written: make room, then run tiller run --session ${session} again to carry the turn on`,
  ]);

  // Run again with the file still at its limit: the same line, and no model call is spent on a reply that could not be kept.
  const stillFull = await tiller(['run', ...args.slice(1, -1), 'go on'], { env, fileSizeKib: 16 });
  expect(stillFull.code).toBe(1);
  expect(stillFull.stderr.trim().split('\n').at(-1)).toBe(
    `tiller run: ${journal}: cannot open the journal to append to it: EFBIG: file too large, write; the session keeps what was written: make room, then run tiller run --session ${session} again to carry the turn on`,
  );
  // Before: 4, the resumed turn's model call made before the line of its reply failed.
  expect(server.requests).toHaveLength(3);

  const again = await tiller(['run', ...args.slice(1, -1), 'go on'], { env });
  expect(again.code).toBe(0);
  // The line a full disk cut short is no crash's: the warning says only that its write was cut off.
  // Before: `torn by a crash mid-write`, which no crash had done.
  expect(again.stderr).toMatch(new RegExp(`^warning: ${journal}:\\d+: the line is incomplete \\(a write was cut off\\): "\\{`));
  expect(again.stdout).toContain('Carried on.');
  expect(again.stdout).toContain('Going on.');
  const replay = await tiller(['replay', '-q', session]);
  expect(replay.code).toBe(0);
});

it('tiller run on a terminal whose session cannot grow: the same line, and it ends with exit 1 instead of offering prompts that all fail', async () => {
  const read = (id: string) => ({ stream: { text: 'Reading.', toolCalls: [{ id, name: 'read_file', args: { path: 'big.txt' } }] } });
  server = await startOpenAICompatibleServer({ script: [read('call_1'), read('call_2'), read('call_3'), { stream: { text: 'Never reached.' } }] });
  const session = join(dir, 'chat.jsonl');
  const journal = join(dir, 'chat.journal.jsonl');
  const args = ['run', '--base-url', server.baseURL, '--model', 'qwen3', '--workspace', join(dir, 'workspace'), '--session', session, 'read it'];
  const pty = tillerInPty(args, { env: { TILLER_API_KEY: 'sk-test', TILLER_HOME: join(dir, 'home') }, fileSizeKib: 16 });
  try {
    // Before: `tiller run: the agent stopped: …` without what to do, the prompt again, and exit 0 at Ctrl-D.
    await pty.waitFor(`tiller run: ${journal}: cannot append the journal's input line: EFBIG: file too large, write; the session keeps what was written: make room, then run tiller run --session ${session} again to carry the turn on`);
    expect(await pty.exited).toBe(1);
  } finally {
    pty.kill();
  }
});

it('tiller run on a session file already past the limit: the first append fails, and the line names the session file', async () => {
  server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'Never kept.' } }] });
  const session = join(dir, 'chat.jsonl');
  const store = await JsonlStore.open(session, { create: true });
  const at = '2026-01-01T00:00:00.000Z';
  await store.append([
    { kind: 'message', id: 'old-q', parentId: null, at, message: { role: 'user', content: 'q'.repeat(120_000) } },
    { kind: 'message', id: 'old-a', parentId: 'old-q', at, message: { role: 'assistant', content: [{ type: 'text', text: 'an old answer' }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' } },
  ]);
  await store.close();
  const env = { TILLER_API_KEY: 'sk-test', TILLER_HOME: join(dir, 'home') };
  const run = await tiller(['run', '--base-url', server.baseURL, '--model', 'qwen3', '--workspace', join(dir, 'workspace'), '--session', session, 'next question'], { env, fileSizeKib: 100 });
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(new RegExp(`^tiller run: ${session}: cannot append the entry [\\w-]+\\.0: EFBIG: file too large, write; the session keeps what was written: make room, then run tiller run --session ${session} again to carry the turn on$`)),
  ]);
  const reopened = await JsonlStore.open(session, { readOnly: true });
  expect(reopened.warnings).toEqual([]);
  expect(reopened.entries.map((e) => e.id)).toEqual(['old-q', 'old-a']);
});

it('tiller export -o and tiller import on a disk that stops taking the output: exit 3 naming the file, no part of it left, so the same command runs once there is room', async () => {
  const session = join(dir, 'chat.jsonl');
  const store = await JsonlStore.open(session, { create: true });
  await store.append([{ kind: 'message', id: 'q', parentId: null, at: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'q'.repeat(20_000) } }]);
  await store.close();
  const out = join(dir, 'chat.json');
  const exported = await tiller(['export', session, '--format', 'json', '-o', out], { fileSizeKib: 8 });
  expect(exported.code).toBe(3);
  expect(exported.stderr.trim().split('\n')).toEqual([`tiller export: ${out}: cannot write the file: EFBIG: file too large, write`]);
  // Before: the 8 KiB the write got through stayed as chat.json, and the next try said it already existed (exit 2).
  expect(existsSync(out)).toBe(false);
  expect((await tiller(['export', session, '--format', 'json', '-o', out])).code).toBe(0);

  const pi = join(dir, 'pi.jsonl');
  await writeFile(pi, makePiSessionText(6).text);
  const target = join(dir, 'pi.tiller.jsonl');
  const imported = await tiller(['import', pi], { fileSizeKib: 8 });
  expect(imported.code).toBe(3);
  expect(imported.stderr.trim().split('\n')).toEqual([`tiller import: ${target}: cannot write the file: EFBIG: file too large, write`]);
  // Before: exit 1 (`AppendError: …`), and a session file holding only its header stayed, which the next try refused.
  expect(existsSync(target)).toBe(false);
  expect((await tiller(['import', pi])).code).toBe(0);
});
