/**
 * The inspector in a real browser (Debian's chromium, driven by playwright-core): journals
 * recorded by real agents, served on 127.0.0.1, followed live, and exported to one HTML file
 * opened from file://. Every page must load without an error and without a request leaving
 * 127.0.0.1. Screenshots go to apps/inspector/.screenshots (or TILLER_SCREENSHOTS).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { journalPathFor } from '@tiller/shell';
import { startOpenAICompatibleServer } from '@tiller/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession, type RecordedFiles } from '../scripts/make-journals.js';
import { buildPage, serveInspector, writeInspectorHtml, type InspectorServer } from '../src/index.js';
import { readJournal } from '../src/journal/read-journal.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SHOTS = process.env.TILLER_SCREENSHOTS ?? fileURLToPath(new URL('../.screenshots/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

let browser: Browser;
let dir: string;
let recorded: RecordedFiles;
let journalText: string;
const servers: InspectorServer[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`the browser tests drive Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  await buildPage();
  dir = await mkdtemp(join(tmpdir(), 'tiller-inspector-browser-'));
  recorded = await recordNotebookSession(join(dir, 'recorded'));
  journalText = await readFile(recorded.journalFile, 'utf8');
  await mkdir(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A page that records every error and every request that is not to 127.0.0.1 or a local file (and blocks it). */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'file:' || url.protocol === 'data:' || (url.protocol === 'http:' && url.hostname === '127.0.0.1')) return route.continue();
    problems.push(`request outside 127.0.0.1: ${url.href}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return { page, problems };
}

async function serve(options: { file: string; follow?: boolean }): Promise<InspectorServer> {
  const server = await serveInspector({ ...options, port: 0 });
  servers.push(server);
  return server;
}

const ready = (page: Page) => page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
const litState = (page: Page) => page.$eval('#chart g.node.current', (g) => g.id);
const selectedRow = (page: Page) => page.$eval('#timeline .row.selected .input', (n) => n.textContent);
const currentCall = (page: Page) => page.$eval('#gauge .call.current .call-name', (n) => n.textContent);

/** The 1-based position just after the n-th input of `type` in the last segment. */
function positionOf(type: string, nth = 1): number {
  const inputs = readJournal(journalText).segments[0]!.inputs;
  let seen = 0;
  const index = inputs.findIndex((i) => i.input.type === type && ++seen === nth);
  if (index < 0) throw new Error(`no ${type} #${nth}`);
  return index + 1;
}

/** Opens the page from file:// with nothing and picks a journal with the recorded session file. */
async function pickWithSession(page: Page, name: string, journal: string): Promise<void> {
  await page.goto(pathToFileURL(fileURLToPath(new URL('../dist/page/index.html', import.meta.url))).href);
  await page.waitForSelector('body[data-ready="empty"]');
  await page.setInputFiles('#file', [
    { name, mimeType: 'application/x-ndjson', buffer: Buffer.from(journal) },
    { name: 'notebook.jsonl', mimeType: 'application/x-ndjson', buffer: await readFile(recorded.sessionFile) },
  ]);
  await ready(page);
}

async function goTo(page: Page, position: number): Promise<void> {
  await page.keyboard.press('Home');
  for (let i = 0; i < position; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector(`body[data-position="${position}"]`);
}

describe('the inspector page', { timeout: 60_000 }, () => {
  it('replays a served session and its journal, and shows the lit state, the timeline row and the gauge at chosen steps', async () => {
    const server = await serve({ file: recorded.sessionFile });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const { page, problems } = await openPage();
    await page.goto(server.url);
    await ready(page);
    // The journal has two runs; the page opens the last one, which started from the session's first entry.
    expect(await page.textContent('#verdict')).toMatch(/^replay matches the recording \(3 inputs\)/);
    expect(await page.$$eval('#segment option', (o) => o.length)).toBe(2);
    await page.selectOption('#segment', '0');
    const inputs = readJournal(journalText).segments[0]!.inputs.length;
    expect(await page.textContent('#verdict')).toBe(`replay matches the recording (${inputs} inputs)`);

    // The journal names the model, its window and the compactor's reserve; the gauge is drawn against them.
    expect(await page.textContent('#gauge .gauge-legend')).toMatch(/^window 2,000 tokens \(scripted\/notes\), reserve 500.*reserve \(compacts above 1,500\)$/);

    await goTo(page, 1);
    expect(await litState(page)).toBe('state:steering');
    expect(await selectedRow(page)).toBe('turn.start');
    expect(await page.$$eval('#chart g.edge.last', (e) => e.map((g) => g.id))).toEqual(['edge:idle:turn.start:0']);

    const approval = positionOf('approval.needed');
    await goTo(page, approval);
    expect(await litState(page)).toBe('state:tools.awaitingApproval');
    expect(await page.$eval('#chart g.cluster.current-parent', (g) => g.id)).toBe('state:tools');
    expect(await selectedRow(page)).toBe('approval.needed');
    expect(await currentCall(page)).toBe('call 2');
    // The reserve is hatched at the top of the call's bar: from 1,500 of the 2,000 tokens on.
    expect(await page.$eval('#gauge .call.current .bar .reserve', (r) => [(r as HTMLElement).style.left, (r as HTMLElement).style.right, r.getAttribute('title')])).toEqual([
      '75%',
      '0px',
      "the compactor's reserve: it compacts above 1,500 tokens",
    ]);
    // The edge from calling into the tools has been taken twice by now: drawn thicker than once.
    expect(await page.$eval('[id="edge:calling:llm.done:0"]', (g) => g.getAttribute('class'))).toMatch(/traced use-2/);

    // Each tool call of a batch under its row, with the time the journal gave it.
    await goTo(page, positionOf('llm.done'));
    expect(await page.$$eval('#timeline .row.selected .line.tool', (lines) => lines.map((l) => l.textContent))).toEqual([
      expect.stringMatching(/^↳ read_note\{"title":"groceries"\}\d+ ms$/),
      expect.stringMatching(/^↳ read_note\{"title":"todo"\}\d+ ms$/),
    ]);
    // The tree marks what a step appended: the batch's two tool results.
    await goTo(page, positionOf('tools.done'));
    expect(await page.$$eval('#tree .entry.appended .entry-kind', (e) => e.map((n) => n.textContent))).toEqual(['toolResult', 'toolResult']);
    // The slider goes anywhere at once.
    await page.$eval('#slider', (slider, to) => {
      (slider as HTMLInputElement).value = String(to);
      slider.dispatchEvent(new Event('input'));
    }, approval);
    expect(await page.evaluate(() => document.body.dataset.position)).toBe(String(approval));
    expect(await litState(page)).toBe('state:tools.awaitingApproval');

    const followUp = positionOf('follow_up');
    await goTo(page, followUp);
    expect(await page.textContent('#chart-caption')).toMatch(/^follow_up stayed in steering: queued a follow-up: it joins the context at the next steering boundary$/);

    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-position="${inputs}"]`);
    expect(await litState(page)).toBe('state:idle');
    expect(await currentCall(page)).toBe('call 4');
    // A compaction between tool rounds, with its tokens before and after, in the gauge and the timeline.
    expect(await page.textContent('#gauge .gauge-compaction')).toMatch(/compacted \(keepTail\): [\d,]+ → [\d,]+ tokens/);
    expect(await page.$$eval('#tree .entry.kind-compaction.on-path', (e) => e.length)).toBe(1);
    expect(await page.$$eval('#tree .label', (e) => e.map((n) => n.textContent))).toEqual(expect.arrayContaining(['first answer', 'end of first run']));

    // A model call opens to the messages sent and what changed since the call before.
    await page.click('#gauge .call:nth-of-type(4) .bar, #gauge .call >> nth=3');
    expect(await page.textContent('#detail .diff-summary')).toMatch(/since the call before: \d+ kept, \d+ removed, \d+ added/);
    // An effect chip opens to its payload.
    await goTo(page, approval);
    await page.click('#timeline .row.selected .chip-request_approval');
    expect(JSON.parse((await page.textContent('#detail pre'))!)).toMatchObject({ type: 'request_approval', calls: [{ name: 'write_note' }] });
    await page.screenshot({ path: join(SHOTS, 'inspector-approval.png') });
    expect(problems).toEqual([]);
  });

  it('follows a live run to its end, showing the effect in flight', async () => {
    const liveDir = join(dir, 'live');
    const journal = join(liveDir, 'notebook.journal.jsonl');
    // Neither the session file nor its journal exists yet: the server waits for the journal.
    const server = await serve({ file: join(liveDir, 'notebook.jsonl'), follow: true });
    const { page, problems } = await openPage();
    await page.goto(server.url);
    await ready(page);
    const run = recordNotebookSession(liveDir, { delayMs: 400 });
    // While the scripted model waits before streaming, the page shows the call it is waiting on.
    const shown = await page.waitForFunction(() => {
      const text = document.getElementById('inflight')?.textContent ?? '';
      return text.startsWith('in flight: call_llm') ? text : false;
    }, undefined, { timeout: 15_000 });
    expect(await shown.jsonValue()).toMatch(/^in flight: call_llm \S+:call:\d+ \(\d+\.\d s\)$/);
    await page.screenshot({ path: join(SHOTS, 'inspector-live.png') });
    await run;
    const final = readJournal(await readFile(journal, 'utf8'));
    const lastInputs = final.segments.at(-1)!.inputs.length;
    await page.waitForFunction(
      (n) => document.body.dataset.position === String(n) && document.querySelectorAll('#segment option').length === 2,
      lastInputs,
      { timeout: 15_000 },
    );
    expect(await page.textContent('#inflight')).toBe('idle');
    expect(await page.textContent('#verdict')).toBe(`replay matches the recording (${lastInputs} inputs)`);
    // Every line, from the first on, reached the page.
    expect(await page.evaluate(() => document.body.dataset.lines)).toBe(String(final.lines));
    expect(problems).toEqual([]);
  });

  it('follows a live run whose session file it cannot read, and says why on the page', async () => {
    const liveDir = join(dir, 'live-damaged');
    await mkdir(liveDir, { recursive: true });
    const sessionFile = join(liveDir, 'notebook.jsonl');
    const [header, ...rest] = (await readFile(recorded.sessionFile, 'utf8')).split('\n');
    await writeFile(sessionFile, [header!.replace(/"id":"[^"]*"/, '"id":""'), ...rest].join('\n'));
    await writeFile(journalPathFor(sessionFile), journalText);
    const server = await serve({ file: sessionFile, follow: true });
    const { page, problems } = await openPage();
    await page.goto(server.url);
    await ready(page);
    const lines = readJournal(journalText).lines;
    await page.waitForFunction((n) => document.body.dataset.lines === String(n), lines, { timeout: 15_000 });
    // The journal still plays; the page says which file it could not read, where, and what it does without it.
    expect(await page.$$eval('#notices .notice', (n) => n.map((x) => x.textContent))).toContain(
      'notebook.jsonl:1, field id: expected a non-empty session id; the session tree grows from the replay instead',
    );
    expect(await page.textContent('#verdict')).toMatch(/^replay matches the recording/);
    expect(problems).toEqual([]);
  });

  it('follows a live `tiller run --inspect` against a model server on 127.0.0.1 to its end, with the reserve marked', async () => {
    const model = await startOpenAICompatibleServer({
      script: [
        // Each reply waits before it streams: the page shows the call in flight meanwhile.
        { stream: { text: 'Looking around first.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }], delayMs: 1_500, usage: { prompt_tokens: 900, completion_tokens: 12 } } },
        { stream: { text: 'Reading the README.', toolCalls: [{ id: 'call_2', name: 'read_file', args: { path: 'README.md' } }], delayMs: 300, usage: { prompt_tokens: 1_100, completion_tokens: 14 } } },
        { stream: { text: 'It is a small project with a README.', delayMs: 300, chunkDelayMs: 15, usage: { prompt_tokens: 1_300, completion_tokens: 10 } } },
      ],
    });
    const runDir = join(dir, 'run');
    await mkdir(join(runDir, 'workspace'), { recursive: true });
    await writeFile(join(runDir, 'workspace', 'README.md'), '# notes\n\nA small project.\n');
    const sessionFile = join(runDir, 'chat.jsonl');
    // The CLI from its sources, as `pnpm tsx apps/cli/src/main.ts` runs it (the test's NODE_OPTIONS carry the source condition).
    const tsx = pathToFileURL(createRequire(join(REPO, 'package.json')).resolve('tsx')).href;
    const args = ['run', '--base-url', model.baseURL, '--model', 'qwen3', '--window', '8000', '--compactor', 'keepTail', '--workspace', join(runDir, 'workspace'), '--session', sessionFile, '--inspect', 'what is this project?'];
    const child = spawn(process.execPath, ['--import', tsx, join(REPO, 'apps/cli/src/main.ts'), ...args], {
      cwd: REPO,
      env: { ...process.env, TILLER_API_KEY: 'sk-local', TILLER_HOME: join(runDir, 'home') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const found = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stdout);
          if (found) resolve(found[1]!);
        });
        void exited.then((code) => reject(new Error(`tiller run exited (${code}) before printing its URL: ${stdout}${stderr}`)));
      });
      const { page, problems } = await openPage();
      await page.goto(url);
      // While the first reply waits, the page shows the model call in flight.
      const shown = await page.waitForFunction(() => {
        const text = document.getElementById('inflight')?.textContent ?? '';
        return text.startsWith('in flight: call_llm') ? text : false;
      }, undefined, { timeout: 30_000 });
      expect(await shown.jsonValue()).toMatch(/^in flight: call_llm \S+ \(\d+\.\d s\)$/);
      await page.screenshot({ path: join(SHOTS, 'inspector-run-live.png') });

      await model.request(3);
      await page.waitForFunction(() => document.getElementById('inflight')?.textContent === 'idle', undefined, { timeout: 30_000 });
      const final = readJournal(await readFile(journalPathFor(sessionFile), 'utf8'));
      const inputs = final.segments.at(-1)!.inputs.length;
      await page.waitForSelector(`body[data-position="${inputs}"]`, { timeout: 15_000 });
      expect(await page.textContent('#verdict')).toBe(`replay matches the recording (${inputs} inputs)`);
      expect(await page.evaluate(() => document.body.dataset.lines)).toBe(String(final.lines));
      expect(await litState(page)).toBe('state:idle');
      expect(await currentCall(page)).toBe('call 3');
      // The header carries the CLI compactor's reserve (a quarter of the 8,000-token window): marked on every bar.
      expect(await page.textContent('#gauge .gauge-legend')).toMatch(/^window 8,000 tokens \(local\/qwen3\), reserve 2,000/);
      expect(await page.$eval('#gauge .call.current .bar .reserve', (r) => (r as HTMLElement).style.left)).toBe('75%');
      await page.screenshot({ path: join(SHOTS, 'inspector-run-done.png') });
      expect(problems).toEqual([]);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stdout).toContain('It is a small project with a README.');
    } finally {
      child.kill('SIGKILL');
      await model.close();
    }
  });

  it('resumes a stream from Last-Event-ID with the lines after it', async () => {
    const server = await serve({ file: recorded.journalFile, follow: true });
    const controller = new AbortController();
    const response = await fetch(`${server.url}events`, { headers: { 'last-event-id': '20' }, signal: controller.signal });
    const reader = response.body!.getReader();
    let text = '';
    const total = journalText.trim().split('\n').length;
    while (!text.includes(`id: ${total}\n`)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: total - 20 }, (_, i) => 21 + i));
  });

  it('opens the self-contained HTML export from file:// with no request at all', async () => {
    const out = await writeInspectorHtml(recorded.sessionFile, join(dir, 'export.html'));
    const { page, problems } = await openPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(out).href);
    await ready(page);
    expect(await page.textContent('#verdict')).toMatch(/^replay matches the recording/);
    await page.keyboard.press('End');
    expect(await litState(page)).toBe('state:idle');
    expect(requests).toEqual([pathToFileURL(out).href]);
    expect(problems).toEqual([]);
  });

  it('opens ?journal=URL, picked files and dropped files, and marks where a tampered journal departs from the recording', async () => {
    const server = await serve({ file: recorded.sessionFile });
    const { page, problems } = await openPage();
    await page.goto(`${server.url}?journal=/journal&session=/session`);
    await ready(page);
    expect(await page.textContent('#verdict')).toMatch(/^replay matches the recording \(3 inputs\)/);

    // The model "answered" the first call without tool calls: the replay goes elsewhere from there.
    const tampered = journalText.replace(/"toolCall","id":"call-1-1"/, '"toolCall","id":"call-1-x"');
    expect(tampered).not.toBe(journalText);
    await pickWithSession(page, 'notebook.journal.jsonl', tampered);
    await page.selectOption('#segment', '0');
    expect(await page.textContent('#verdict')).toBe(`replay differs from the recording at input #${positionOf('llm.done')}`);
    await goTo(page, positionOf('llm.done'));
    expect(await page.$eval('#timeline .row.selected', (r) => r.className)).toMatch(/diverged/);

    // Dropping the recorded files on the page opens them in place of the tampered one.
    const session = await readFile(recorded.sessionFile, 'utf8');
    await page.evaluate(
      ([journal, sessionFile]) => {
        const files = new DataTransfer();
        files.items.add(new File([journal!], 'notebook.journal.jsonl'));
        files.items.add(new File([sessionFile!], 'notebook.jsonl'));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
      },
      [journalText, session],
    );
    await page.waitForFunction(() => document.getElementById('verdict')?.textContent === 'replay matches the recording (3 inputs)');
    expect(problems).toEqual([]);
  });

  it('says plainly it cannot read a run of a later journal version, and keeps the run before it as recorded', async () => {
    const lines = journalText.split('\n').filter(Boolean);
    const [header, ...body] = lines.slice(0, lines.findIndex((l, i) => i > 0 && l.startsWith('{"type":"header"')));
    const mixed = `${[...lines, header!.replace('"version":4', '"version":5'), ...body].join('\n')}\n`;
    const { page, problems } = await openPage();
    await pickWithSession(page, 'mixed.journal.jsonl', mixed);
    expect(await page.$$eval('#segment option', (o) => o.map((x) => x.textContent!.replace(/ · \d{4}-.*$/, '')))).toEqual(['run 1', 'run 2', 'run 3 · cannot be read']);
    // The page opens the last run: it says why it cannot show it.
    expect(await page.textContent('#verdict')).toBe('run 3 cannot be read: it is journal version 5; this inspector reads versions 1, 2, 3, 4');
    expect(await page.$eval('#verdict', (v) => v.className)).toBe('verdict bad');
    await page.selectOption('#segment', '1');
    expect(await page.textContent('#verdict')).toBe('replay matches the recording (3 inputs)');
    expect(problems).toEqual([]);
  });
});
