import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenAICompatibleServer, type ServerReply, startOpenAICompatibleServer } from '@tiller/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PtyRun, tillerInPty } from './pty.js';
import { limitFileSize, nodeBelow } from './file-size-limit.js';
import { tillerInProcess } from './in-process.js';
import { connects } from './connects.js';
import { createWebSocketReceiver, type StatelyInspectionEvent } from '@statelyai/inspect';
import { repoRoot, startTiller, tiller, tillerCommand } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

const KEY = 'sk-test-not-a-real-key-5f2c';
let dir: string;
let workspace: string;
let server: OpenAICompatibleServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-run-'));
  workspace = join(dir, 'workspace');
  env = { TILLER_API_KEY: KEY, TILLER_HOME: join(dir, 'home') };
  await mkdir(workspace);
  await writeFile(join(workspace, 'README.md'), '# project\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const sessionFile = () => join(dir, 'chat.jsonl');
const runArgs = (...more: string[]) => ['run', '--base-url', server!.baseURL, '--model', 'qwen3', '--workspace', workspace, '--session', sessionFile(), ...more];
let env: Record<string, string>;

/** Every file the run left: the session, its journal, and anything under TILLER_HOME. */
async function everythingWritten(): Promise<string> {
  const out: string[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, String(name));
    if (!path.startsWith(workspace)) out.push(await readFile(path, 'utf8').catch(() => ''));
  }
  return out.join('\n');
}

/**
 * `tiller run` on a terminal whose first model call hangs: once the server has it, `before` runs
 * and `keys` are typed, then `check` reads the terminal from there (`at`); the run is killed after.
 * The replies after the hanging one are `later`.
 */
async function whileTheCallHangs(
  keys: string,
  check: (pty: PtyRun, at: number) => Promise<void>,
  options: { later?: ServerReply[]; fileSizeKib?: number; before?: (pty: PtyRun) => void } = {},
): Promise<PtyRun> {
  server = await startOpenAICompatibleServer({ script: [{ hang: true }, ...(options.later ?? [])] });
  const pty = tillerInPty(runArgs('start something'), { env, ...(options.fileSizeKib ? { fileSizeKib: options.fileSizeKib } : {}) });
  try {
    const at = await pty.waitFor('model call 1');
    await server.request(1);
    options.before?.(pty);
    pty.type(keys);
    await check(pty, at);
  } finally {
    pty.kill();
  }
  return pty;
}

/**
 * The same, with the disk full (the journal can take no further line) before `keys` are typed: it
 * shows `lines` and the one line naming the journal, exits 1 with no stack trace, and leaves no lock.
 */
async function typeOnceTheJournalIsFull(keys: string, ...lines: string[]): Promise<void> {
  const journal = join(dir, 'chat.journal.jsonl');
  const pty = await whileTheCallHangs(
    keys,
    async (pty, at) => {
      for (const line of lines) await pty.waitFor(line, { from: at });
      await pty.waitFor(`tiller run: ${journal}: cannot append the journal's input line: EFBIG: file too large, write`, { from: at });
      expect(await pty.exited).toBe(1);
    },
    { fileSizeKib: 1_000_000, before: (pty) => limitFileSize(nodeBelow(pty.pid), statSync(journal).size) },
  );
  expect(pty.text()).not.toMatch(/^\s+at /m);
  expect((await readdir(dir)).filter((name) => name.includes('.lock'))).toEqual([]);
}

describe('tiller run without a terminal', () => {
  it('--mode json prints every agent event as one JSON line, runs the tool the model calls, and writes the key nowhere', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { stream: { text: 'Looking.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }] } },
        { stream: { text: 'There is a README.' } },
      ],
    });
    const run = await tiller(runArgs('--mode', 'json', 'what is in this folder?'), { env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; toolName?: string; isError?: boolean; outcome?: { status: string } });
    const types = events.map((e) => e.type);
    for (const type of ['turn.started', 'llm.started', 'text.delta', 'llm.finished', 'tool.started', 'tool.finished', 'turn.ended']) expect(types).toContain(type);
    expect(events.find((e) => e.type === 'tool.finished')).toMatchObject({ toolName: 'list_files', isError: false });
    expect(events.at(-1)).toMatchObject({ type: 'turn.ended', outcome: { status: 'completed' } });
    // The tool really ran in the workspace: its result went back to the model.
    const toolMessage = server.requests[1]!.body.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('README.md');
    // The key went to the server, and nowhere else.
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run.stdout).not.toContain(KEY);
    const written = await everythingWritten();
    expect(written).toContain('what is in this folder?');
    expect(written).not.toContain(KEY);
  });

  it('-p prints only the final answer; the prompt can come on stdin', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'Four.' } }] });
    const run = await tiller(runArgs('-p'), { env, input: 'What is two plus two?\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Four.\n');
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain('What is two plus two?');
  });

  it('denies writes when no one can approve them, telling the model why; --yes lets them run', async () => {
    const write = { id: 'call_w', name: 'write_file', args: { path: 'notes.md', content: 'hello\n' } };
    server = await startOpenAICompatibleServer({ script: [{ stream: { toolCalls: [write] } }, { stream: { text: 'I could not write it.' } }] });
    const denied = await tiller(runArgs('write a note'), { env });
    expect(denied.code).toBe(0);
    expect(denied.stderr).toContain('denied write_file notes.md: no terminal to ask (--yes allows writes)');
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1))).toContain('No one is there to approve writes');
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
    await server.close();

    server = await startOpenAICompatibleServer({ script: [{ stream: { toolCalls: [write] } }, { stream: { text: 'Written.' } }] });
    const allowed = await tiller(runArgs('--yes', 'write a note'), { env });
    expect(allowed.code).toBe(0);
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('hello\n');
  });

  it('shows a ✗ line for each tool call refused before it ran: a tool it does not have, arguments that are not JSON', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'qwen3', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    // A reply the test server cannot script: the second call's arguments are not JSON.
    const reply = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_u', type: 'function', function: { name: 'fetch_url', arguments: '{"url":"https://example.com"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_j', type: 'function', function: { name: 'read_file', arguments: 'not json {{{' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    server = await startOpenAICompatibleServer({
      script: [{ status: 200, headers: { 'content-type': 'text/event-stream' }, rawBody: reply }, { stream: { text: 'Neither call ran.' } }],
    });
    const run = await tiller(runArgs('fetch the page and read the file'), { env });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^✗ fetch_url \{"url":"https:\/\/example\.com"\} {2}not run: unknown tool$/));
    expect(lines).toContainEqual(expect.stringMatching(/^✗ read_file {2}not run: its arguments are not a JSON object$/));
    // What the model read says the same.
    const results = server.requests[1]!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results).toEqual([expect.stringMatching(/^Unknown tool "fetch_url"/), expect.stringMatching(/^Tool "read_file" did not run: its arguments are not a JSON object: not json \{\{\{/)]);
  });

  it('-c continues the newest session of the directory; --fork continues from an earlier entry', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'First answer.' } }, { stream: { text: 'Second answer.' } }, { stream: { text: 'Forked answer.' } }] });
    const base = ['run', '--base-url', server.baseURL, '--workspace', workspace];
    expect((await tiller([...base, 'first question'], { env, cwd: workspace })).code).toBe(0);
    expect((await tiller([...base, '-c', 'second question'], { env, cwd: workspace })).code).toBe(0);
    const second = server.requests[1]!.body.messages.map((m) => `${m.role}:${JSON.stringify(m.content)}`);
    expect(second.join('\n')).toMatch(/user:.*first question[\s\S]*assistant:.*First answer\.[\s\S]*user:.*second question/);

    const sessionsDir = (await tiller(['sessions'], { env, cwd: workspace })).stdout;
    const path = /\n\s+(\/\S+\.jsonl)/.exec(sessionsDir)![1]!;
    const firstAnswer = (await readFile(path, 'utf8')).split('\n').map((l) => (l ? (JSON.parse(l) as { id?: string; message?: { content?: unknown } }) : {})).find((e) => JSON.stringify(e.message?.content ?? '').includes('First answer.'))!;
    expect((await tiller([...base, '--session', path, '--fork', firstAnswer.id!, 'another question'], { env })).code).toBe(0);
    const forked = JSON.stringify(server.requests[2]!.body.messages);
    expect(forked).toContain('First answer.');
    expect(forked).not.toContain('second question');
    const shown = await tiller(['show', path]);
    expect(shown.stdout).toMatch(/1 branch points/);
  });

  it('--session on a torn file says on stderr what it skipped, as show does, and goes on with what it holds', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'First answer.' } }, { stream: { text: 'Second answer.' } }] });
    expect((await tiller(runArgs('-p', 'first question'), { env })).code).toBe(0);
    const text = await readFile(sessionFile(), 'utf8');
    await writeFile(sessionFile(), `${text}{"kind":"message","id":"torn`);
    const line = text.trimEnd().split('\n').length + 1;
    const again = await tiller(runArgs('-p', 'second question'), { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Second answer.\n');
    expect(again.stderr).toMatch(new RegExp(`^warning: .*chat\\.jsonl:${line}: the last line is incomplete .*; it was cut off before the first write$`, 'm'));
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('First answer.');
  });

  it('a torn journal line is a warning on stderr naming the journal file and the line, with -p and on the text view', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'First answer.' } }, { stream: { text: 'Second answer.' } }, { stream: { text: 'Third answer.' } }] });
    expect((await tiller(runArgs('-p', 'first question'), { env })).code).toBe(0);
    const journal = join(dir, 'chat.journal.jsonl');
    const text = await readFile(journal, 'utf8');
    await writeFile(journal, `${text}{"type":"input","seq":`);
    const line = text.trimEnd().split('\n').length + 1;
    const said = new RegExp(`^warning: ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: `, 'm');
    const printed = await tiller(runArgs('-p', 'second question'), { env });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe('Second answer.\n');
    expect(printed.stderr).toMatch(said);
    const viewed = await tiller(runArgs('third question'), { env });
    expect(viewed.code).toBe(0);
    expect(viewed.stderr).toMatch(said);
    expect(viewed.stdout).not.toMatch(/^! journal/m);
    expect(viewed.stdout).toMatch(/Third answer\./);
  });

  it('--fork with an entry the session does not hold names --fork and the session file, and exits 2', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'First answer.' } }] });
    expect((await tiller(runArgs('-p', 'first question'), { env })).code).toBe(0);
    const run = await tiller(runArgs('--fork', 'zzz', 'another question'), { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^tiller run: --fork zzz: no entry "zzz" in session ${sessionFile().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
    expect(server.requests).toHaveLength(1);
  });

  it('a failed turn is one line on stderr (and on stdout), even when the provider said it in several', async () => {
    server = await startOpenAICompatibleServer({ script: [{ status: 400, body: { error: { message: 'bad request:\n  messages[0] is wrong\n  see the docs' } } }] });
    const run = await tiller(runArgs('hi'), { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tiller run: the turn failed: .*bad request: messages\[0\] is wrong see the docs$/)]);
    expect(run.stdout).toMatch(/^● turn failed: .*bad request: messages\[0\] is wrong see the docs$/m);
  });

  it('Ctrl-C (SIGINT) aborts the turn, the session stays valid and its journal replays', async () => {
    server = await startOpenAICompatibleServer({ script: [{ hang: true }] });
    const child = spawn(process.execPath, [...tillerCommand, ...runArgs('take your time')], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdin.end();
    await server.request(1);
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('tiller run: the turn aborted: interrupted by the user (Ctrl-C)');
    const replay = await tiller(['replay', '-q', sessionFile()]);
    expect(replay.stdout).toMatch(/^replay: identical/);
    expect(replay.code).toBe(0);
  });

  it('Ctrl-C once the journal can no longer be written: one line naming the journal and exit 1 (before: the refused abort was an unhandled rejection that killed tiller, the session left locked)', async () => {
    server = await startOpenAICompatibleServer({ script: [{ hang: true }] });
    const journal = join(dir, 'chat.journal.jsonl');
    const run = startTiller(runArgs('take your time'), { env, fileSizeKib: 1_000_000 });
    try {
      await server.request(1);
      // The disk fills up: the abort's own journal line is the first write that cannot be made.
      limitFileSize(nodeBelow(run.child.pid!), statSync(journal).size);
      expect(await run.interrupt()).toBe(1);
    } finally {
      run.kill();
    }
    expect(run.output().stderr.trim().split('\n')).toEqual([
      `tiller run: ${journal}: cannot append the journal's input line: EFBIG: file too large, write; the session keeps what was written: make room, then run tiller run --session ${sessionFile()} again to carry the turn on`,
    ]);
    expect((await readdir(dir)).filter((name) => name.includes('.lock'))).toEqual([]);
  });

  it('picks a killed run up from its journal when the session is opened again, then runs the new prompt', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { stream: { text: 'Looking.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }] } },
        { hang: true },
        { stream: { text: 'Picked up where it stopped: there is a README.' } },
        { stream: { text: 'Second answer.' } },
      ],
    });
    const child = spawn(process.execPath, [...tillerCommand, ...runArgs('first task')], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end();
    const exited = new Promise((resolve) => child.on('close', resolve));
    await server.request(2);
    child.kill('SIGKILL');
    await exited;

    const again = await tiller(runArgs('second task'), { env });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Picked up where it stopped: there is a README.');
    expect(again.stdout).toContain('Second answer.');
    // The model call the kill cut off is made again, with the tool result the first run recorded.
    const resumed = JSON.stringify(server.requests[2]!.body.messages);
    expect(resumed).toContain('first task');
    expect(resumed).toContain('README.md');
    expect(resumed).not.toContain('second task');
    expect(JSON.stringify(server.requests[3]!.body.messages)).toContain('second task');
    const replay = await tiller(['replay', '-q', sessionFile()]);
    expect(replay.code).toBe(0);
  });
});

type StreamedLine = { id: number; data: string };

/**
 * Follows the server-sent events of `url` in the background: `events` grows as they arrive, until
 * `stop()`.
 */
async function followEvents(url: URL, headers: Record<string, string> = {}): Promise<{ events: StreamedLine[]; until(enough: (events: StreamedLine[]) => boolean): Promise<void>; stop(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events: StreamedLine[] = [];
  void (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id !== undefined && data !== undefined) events.push({ id: Number(id), data });
      }
    }
  })().catch(() => undefined); // aborted by stop()
  return {
    events,
    async until(enough) {
      for (let i = 0; i < 600 && !enough(events); i++) await new Promise((r) => setTimeout(r, 25));
      if (!enough(events)) throw new Error(`the stream did not get there: ${events.length} events`);
    },
    stop: () => controller.abort(),
  };
}

describe('tiller run --inspect', () => {
  it('streams the journal to the inspector on 127.0.0.1 as the run writes it, resumable by line number, and serves until Ctrl-C', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        // The model thinks before each reply: the page is following while the run is under way.
        { stream: { text: 'Looking.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }], delayMs: 400 } },
        { stream: { text: 'There is a README.', delayMs: 2_000, chunkDelayMs: 20 } },
        { stream: { text: 'Still here.' } },
      ],
    });
    // A bare --inspect takes no value: the prompt after it stays the prompt.
    const run = startTiller(runArgs('--inspect', 'what is in this folder?'), { env });
    const streams: Array<{ stop(): void }> = [];
    try {
      const [, url] = await run.printed(/^inspector: (http:\/\/127\.0\.0\.1:\d+\/)$/m);
      const events = new URL('events', url!);
      expect(await (await fetch(url!)).text()).toContain('"eventsUrl":"/events"');
      const live = await followEvents(events);
      streams.push(live);
      // While the model thinks over its second reply, the lines of the first round have already arrived.
      await server.request(2);
      await live.until((lines) => lines.some((l) => l.data.includes('"type":"tools.done"')));
      expect(run.output().stdout).not.toContain('There is a README.');

      await run.printed(/the inspector serves http:\/\/127\.0\.0\.1:\d+\/ until Ctrl-C/, 'stderr');
      expect(run.output().stdout).toContain('There is a README.');
      const written = (await readFile(join(dir, 'chat.journal.jsonl'), 'utf8')).trim().split('\n');
      await live.until((lines) => lines.length >= written.length);
      // Every line, from the header on, numbered from 1, as the file holds it.
      expect(live.events.map((e) => e.data)).toEqual(written);
      expect(live.events.map((e) => e.id)).toEqual(written.map((_, i) => i + 1));
      // A client that comes back says where it was and gets the rest.
      const resumed = await followEvents(events, { 'last-event-id': '3' });
      streams.push(resumed);
      await resumed.until((lines) => lines.at(-1)?.id === written.length);
      expect(resumed.events.map((e) => e.id)).toEqual(written.slice(3).map((_, i) => i + 4));
      // While the page serves, the session is closed: another run can go on with it, and the page follows that too.
      const again = await tiller(runArgs('-p', 'anything else?'), { env });
      expect(again.stdout).toBe('Still here.\n');
      await live.until((lines) => lines.filter((l) => l.data.includes('"type":"header"')).length === 2);
      expect(await run.interrupt()).toBe(0);
    } finally {
      for (const stream of streams) stream.stop();
      run.kill();
    }
    const replay = await tiller(['replay', '-q', sessionFile()]);
    expect(replay.stdout).toMatch(/^replay: identical/);
  });

  it("--inspect=stately feeds Stately's inspector: its relay on 127.0.0.1 only hands the turn to a receiver, and stdout keeps only the answer", async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'Four.' } }] });
    const run = startTiller(runArgs('--inspect=stately', '-p', 'What is two plus two?'), { env });
    const received: StatelyInspectionEvent[] = [];
    try {
      const [, port] = await run.printed(/^Stately's inspector: http:\/\/localhost:(\d+)\//m, 'stderr');
      await run.printed(/until Ctrl-C/, 'stderr');
      // Bound to 127.0.0.1 alone: another loopback address (which a server on every interface answers) is refused.
      expect(await connects('127.0.0.1', Number(port))).toBe(true);
      expect(await connects('127.0.0.2', Number(port))).toBe(false);
      // The relay keeps what the run reported for a viewer that comes late.
      createWebSocketReceiver({ server: `ws://127.0.0.1:${port}` }).subscribe((event) => void received.push(event));
      for (let i = 0; i < 250 && !received.some((e) => e.type === '@xstate.snapshot' && JSON.stringify(e).includes('"completed"')); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await run.interrupt()).toBe(0);
    } finally {
      run.kill();
    }
    const actor = received.find((e) => e.type === '@xstate.actor') as Extract<StatelyInspectionEvent, { type: '@xstate.actor' }> | undefined;
    expect(JSON.parse(actor?.definition ?? 'null')).toMatchObject({ id: 'turn', initial: 'idle' });
    expect(received.filter((e) => e.type === '@xstate.event').map((e) => (e as { event: { type: string } }).event.type)).toEqual(['turn.start', 'compaction.done', 'llm.done']);
    expect(received.at(-1)).toMatchObject({ type: '@xstate.snapshot', snapshot: { value: 'idle', context: { lastOutcome: { status: 'completed' } } } });
    expect(run.output().stdout).toBe('Four.\n');
  });
});

describe('tiller run on a terminal', () => {
  it('sends a line typed mid-turn as a steer, asks before a write, and Ctrl-C aborts the turn, then exits', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { stream: { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }], delayMs: 1_500 } },
        { stream: { text: 'Writing the notes.', toolCalls: [{ id: 'call_2', name: 'write_file', args: { path: 'notes.md', content: 'docs only\n' } }] } },
        { stream: { text: 'Wrote notes.md.' } },
        { hang: true },
      ],
    });
    const pty = tillerInPty(runArgs('look around'), { env });
    try {
      let at = await pty.waitFor('model call 1');
      await server.request(1);
      pty.type('only the docs please\r');
      at = await pty.waitFor('» steering: only the docs please', { from: at });
      at = await pty.waitFor('allow write_file notes.md? [y/N]', { from: at });
      // The steer joined the context before the second call.
      expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('only the docs please');
      pty.type('y\r');
      at = await pty.waitFor('● turn completed after 2 tool rounds', { from: at });
      expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('docs only\n');

      at = await pty.waitFor('> ', { from: at });
      pty.type('now something long\r');
      await server.request(4);
      at = await pty.waitFor('model call 1', { from: at });
      pty.type('\u0003');
      at = await pty.waitFor('aborting the turn (Ctrl-C again to exit)', { from: at });
      at = await pty.waitFor('● turn aborted: interrupted by the user (Ctrl-C)', { from: at });
      pty.type('\u0003');
      expect(await pty.exited).toBe(130);
    } finally {
      pty.kill();
    }
    // Colour and the spinner only because this is a terminal.
    expect(pty.raw()).toContain('\u001b[');
    const replay = await tiller(['replay', '-q', sessionFile()]);
    expect(replay.stdout).toMatch(/^replay: identical \(2 segments|^replay: identical/);
    expect(replay.code).toBe(0);
    const log = await readFile(sessionFile(), 'utf8');
    expect(log).toContain('now something long');
    expect(log).not.toContain(KEY);
  });

  it('Ctrl-C once the journal can no longer be written ends tiller with the one line and exit 1 (before: the refused abort was an unhandled rejection that killed it, the session left locked)', async () => {
    await typeOnceTheJournalIsFull('\u0003');
  });
});

describe('tiller run on a terminal, a steering message the turn never took', () => {
  // Ctrl-C and a line in one keystroke burst: the abort reaches the agent first, so the turn has
  // ended by the time the steer does, though the terminal still showed it running.
  it('runs it as the next prompt, saying so (before: it was dropped, the line lost)', async () => {
    await whileTheCallHangs(
      '\u0003do foo instead\r',
      async (pty, from) => {
        let at = await pty.waitFor('» steering: do foo instead', { from });
        at = await pty.waitFor('● turn aborted: interrupted by the user (Ctrl-C)', { from: at });
        at = await pty.waitFor('» the turn ended before your steering message reached it; sending it as the next prompt', { from: at });
        const second = await server!.request(2);
        expect(second.body.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('do foo instead') });
        await pty.waitFor('● turn completed', { from: at });
        pty.type('\u0004');
        expect(await pty.exited).toBe(0);
      },
      { later: [{ stream: { text: 'Doing foo.' } }] },
    );
    expect(await readFile(sessionFile(), 'utf8')).toContain('Doing foo.');
  });

  it('says it was not sent, with its text, when tiller is exiting after that turn (Ctrl-D)', async () => {
    await whileTheCallHangs(
      '\u0003do foo instead\r\u0004',
      async (pty, at) => {
        await pty.waitFor('» not sent: the turn ended before your steering message reached it, and tiller is exiting: do foo instead', { from: at });
        expect(await pty.exited).toBe(0);
      },
      { later: [{ stream: { text: 'Never asked.' } }] },
    );
    expect(server!.requests).toHaveLength(1);
  });

  it('a steer the agent refuses because it stopped (its journal could not be written) is said, and tiller ends with the one line and exit 1 (before: an unhandled rejection killed it, the session left locked)', async () => {
    await typeOnceTheJournalIsFull('do foo\r', '» not sent (the agent stopped): do foo');
  });
});

describe('tiller run on a terminal, when the input closes (Ctrl-D)', () => {
  const write = { id: 'call_w', name: 'write_file', args: { path: 'notes.md', content: 'hello\n' } };

  it('at an open approval question denies the write, saying the input closed, and exits 0 after the turn', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { toolCalls: [write] } }, { stream: { text: 'Left it unwritten.' } }] });
    const pty = tillerInPty(runArgs('write a note'), { env });
    try {
      const at = await pty.waitFor('allow write_file notes.md? [y/N]');
      pty.type('\u0004');
      await pty.waitFor('● turn completed', { from: at });
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1))).toContain('The input closed before the user answered');
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
    expect((await tiller(['replay', '-q', sessionFile()])).code).toBe(0);
  });

  it('before the question came (an "n" typed early went in as a steer) denies it when it comes, and exits 0', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'Thinking it over.', toolCalls: [write], delayMs: 1_500 } }, { stream: { text: 'Left it unwritten.' } }] });
    const pty = tillerInPty(runArgs('write a note'), { env });
    try {
      const at = await pty.waitFor('model call 1');
      await server.request(1);
      pty.type('n\r');
      await pty.waitFor('» steering: n', { from: at });
      pty.type('\u0004');
      await pty.waitFor('● turn completed', { from: at });
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
  });
});

describe('tiller run --resume on a terminal', () => {
  it('lists the sessions of the directory, newest first, and continues the one picked', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'About apples.' } }, { stream: { text: 'About pears.' } }, { stream: { text: 'Back to apples.' } }] });
    const base = ['run', '--base-url', server.baseURL, '--workspace', workspace];
    expect((await tiller([...base, 'tell me about apples'], { env, cwd: workspace })).code).toBe(0);
    expect((await tiller([...base, 'tell me about pears'], { env, cwd: workspace })).code).toBe(0);
    const pty = tillerInPty([...base, '-r', 'and the first one again?'], { env, cwd: workspace });
    try {
      let at = await pty.waitFor('resume which session? ');
      // Newest first: 1 is the pears session, 2 the apples one.
      pty.type('2\r');
      at = await pty.waitFor('Back to apples.', { from: at });
      await pty.waitFor('> ', { from: at });
      pty.type('\u0004');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    const resumed = JSON.stringify(server.requests[2]!.body.messages);
    expect(resumed).toContain('tell me about apples');
    expect(resumed).not.toContain('pears');
  });
});

describe('tiller run, bad input', () => {
  it('a TILLER_HOME that is a file is one line with exit 3, naming TILLER_HOME', async () => {
    const home = join(dir, 'home-file');
    await writeFile(home, 'not a folder\n');
    const run = await tillerInProcess(['run', '--base-url', 'http://127.0.0.1:9/v1', 'hi'], { env: { TILLER_HOME: home }, cwd: workspace });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^tiller run: TILLER_HOME ${home}: cannot make the sessions folder .*: ${home} is a file, not a folder$`))]);
  });

  const cases: Array<{ args: string[]; code: number; message: RegExp }> = [
    { args: ['run', 'hi'], code: 2, message: /^tiller run: say which model: --model provider:model/ },
    { args: ['run', '--model', 'gpt-4o', 'hi'], code: 2, message: /^tiller run: --model must be provider:model with provider openai, anthropic or google/ },
    { args: ['run', '--model', 'anthropic:claude-sonnet-4-5', 'hi'], code: 2, message: /^tiller run: ANTHROPIC_API_KEY is not set/ },
    { args: ['run', '--base-url', 'not a url', 'hi'], code: 2, message: /^tiller run: --base-url must be a URL/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--mode', 'xml', 'hi'], code: 2, message: /^tiller run: --mode must be one of text, json, got "xml"$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--compactor', 'keepTail', 'hi'], code: 2, message: /^tiller run: --compactor keepTail needs the model's context window; give --window N$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--tools', 'bash', 'hi'], code: 2, message: /^tiller run: --tools: no built-in tool "bash"/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '-c', '--session', 'x.jsonl', 'hi'], code: 2, message: /^tiller run: --session and --continue each choose the session; give one$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '-c', 'hi'], code: 3, message: /^tiller run: no session to continue for / },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/no/such/folder.jsonl', 'hi'], code: 3, message: /^tiller run: .*folder\.jsonl: cannot create the lock file/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/pi.jsonl', 'hi'], code: 3, message: /^tiller run: .*pi\.jsonl: a pi session; make a Tiller copy first with tiller import/ },
    // Nothing to fork from in a file that does not exist: refused before the file is created.
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--session', 'DIR/new.jsonl', '--fork', 'abc', 'hi'], code: 3, message: /^tiller run: --fork abc: .*new\.jsonl does not exist, so it has no entry to fork from$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '-p'], code: 2, message: /^tiller run: no prompt: give it as arguments or on stdin/ },
    // A mistyped workspace is refused before anything is created (with --yes a write would have made the folder).
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--yes', '--workspace', 'DIR/no-such-dir', 'hi'], code: 3, message: /^tiller run: --workspace .*no-such-dir: no such folder$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--workspace', 'DIR/pi.jsonl', 'hi'], code: 3, message: /^tiller run: --workspace .*pi\.jsonl: a file, not a folder$/ },
    { args: ['run', '--base-url', 'http://127.0.0.1:9/v1', '--inspect=graph', 'hi'], code: 2, message: /^tiller run: --inspect takes no value \(the inspector page\) or =stately \(Stately's inspector\), got "graph"$/ },
  ];
  it.each(cases)('tiller $args', async ({ args, code, message }) => {
    const home = await mkdtemp(join(tmpdir(), 'tiller-cli-run-bad-'));
    try {
      await writeFile(join(home, 'pi.jsonl'), `${JSON.stringify({ type: 'session', version: 3, id: 'p', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' })}\n`);
      const run = await tillerInProcess(args.map((a) => a.replace('DIR', home)), { env: { TILLER_HOME: home, ANTHROPIC_API_KEY: undefined }, cwd: home });
      expect(run.code, run.stderr).toBe(code);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(existsSync(join(home, 'new.jsonl'))).toBe(false);
      if (args.includes('--workspace')) expect(existsSync(join(home, 'no-such-dir')) || existsSync(join(home, 'sessions'))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
