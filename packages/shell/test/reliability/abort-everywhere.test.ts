import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '@tiller/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ABORT_POINTS, type AbortPoint, type AbortReport, httpScript, runAbortScenario, type ScenarioServer } from './abort-everywhere.scenarios.js';

// An abort at every point a turn can be at, with work there that ignores the signal; then a
// prompt that completes and a close() that returns (abort-everywhere.scenarios.ts). Each
// scenario runs here, and again in a child process of its own, which must then exit by itself.
// One row each in docs/reliability.md ("Abort").

const here = dirname(fileURLToPath(import.meta.url));
/** How long a child may take to run its scenario and exit (generous: tsx starts slowly on a loaded machine). */
const EXIT_DEADLINE_MS = 60_000;

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serverFor(point: AbortPoint): Promise<ScenarioServer | undefined> {
  const script = httpScript(point);
  if (!script) return undefined;
  const started = await startOpenAICompatibleServer({ script });
  server = started;
  return { baseURL: started.baseURL, requestArrived: () => until(() => started.requests.length > 0) };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

function expectReport(report: AbortReport, point: AbortPoint) {
  expect(report.aborted).toMatchObject({ status: 'aborted', reason: 'the host aborted' });
  expect(report.next).toMatchObject({ status: 'completed' });
  expect(report.nextAnswer).toBe('the next answer');
  expect(report.problems).toEqual([]);
  // The scenarios' echo tool never runs: the calls that ask for it are aborted or denied first.
  expect(report.echoed).toBe(0);
  // A compaction that was aborted appends nothing; the next turn's (the summarizer answers then) does.
  expect(report.compactions).toEqual({ afterAbort: 0, afterNext: point === 'during summarization' ? 1 : 0 });
  // What the transcript holds after the abort, point by point.
  switch (point) {
    case 'mid-stream':
    case 'mid-stream (HTTP)':
      expect(report.afterAbort).toMatchObject({ role: 'assistant', stopReason: 'aborted', content: [{ type: 'text', text: expect.stringMatching(/^the b/) }] });
      break;
    case "mid-stream, in a tool call's arguments (HTTP)":
      // The text is kept; the call that streamed in part is left out, and never runs.
      expect(report.afterAbort).toMatchObject({ role: 'assistant', stopReason: 'aborted', content: [{ type: 'text', text: 'Let me look.' }] });
      expect((report.afterAbort as { content: unknown[] }).content).toHaveLength(1);
      break;
    case 'mid-tool':
    case 'while the policy decides':
    case 'while waiting for approval':
      expect(report.afterAbort).toMatchObject({ role: 'toolResult', isError: true });
      break;
    default:
      expect(report.afterAbort).toMatchObject({ role: 'user', content: 'the prompt that is aborted' });
  }
}

describe('abort at every point, with work that ignores the signal: the next prompt completes, close() returns', () => {
  it.each(ABORT_POINTS)('%s', async (point) => {
    expectReport(await runAbortScenario(point, await serverFor(point)), point);
  });
});

describe('abort at every point, in a child process: the process exits by itself (nothing left open)', () => {
  it.each(ABORT_POINTS)('%s', { timeout: EXIT_DEADLINE_MS + 10_000 }, async (point) => {
    const http = await serverFor(point);
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'abort-everywhere.child.ts'), point, ...(http ? [http.baseURL] : [])], {
      cwd: join(here, '..', '..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Tells the child when its first request reached the server, then lets go of its stdin.
    if (http) void http.requestArrived().then(() => child.stdin.end('arrived\n'));
    else child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), EXIT_DEADLINE_MS);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
    if (exit === 'still running') {
      // The child this test started, by its pid, and only it.
      child.kill('SIGKILL');
      const finished = stdout.trim() === '' ? 'before its scenario ended' : 'after its scenario ended: something was left open';
      expect.fail(`the child process (pid ${child.pid}) did not exit within ${EXIT_DEADLINE_MS} ms, ${finished}\n${stderr}`);
    }
    expect(exit, stderr).toEqual({ code: 0, signal: null });
    expectReport(JSON.parse(stdout) as AbortReport, point);
  });
});
