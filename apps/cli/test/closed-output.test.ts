import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@tiller/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTiller, tiller } from './tiller.js';

vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let server: OpenAICompatibleServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-cli-closed-output-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** What a reader like `head -1` does: takes the first line, then goes away while the command still writes. */
async function readFirstLineThenClose(args: string[], env: Record<string, string> = {}) {
  const run = startTiller(args, { env });
  try {
    await run.printed(/\n/);
    run.child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => run.child.on('close', resolve));
    return { code, stderr: run.output().stderr };
  } finally {
    run.kill();
  }
}

describe('a reader that goes away mid-turn (tiller … | head -1)', () => {
  it('run --mode json aborts the turn, closes the session (no lock left) and exits 1; the journal replays', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ stream: { text: 'Looking.', toolCalls: [{ id: 'call_1', name: 'list_files', args: { path: '.' } }] } }, { stream: { text: 'Done.', delayMs: 1_000, chunkDelayMs: 50 } }],
    });
    const session = join(dir, 'chat.jsonl');
    const args = ['run', '--base-url', server.baseURL, '--model', 'm', '--workspace', dir, '--session', session, '--mode', 'json', 'hi'];
    const { code, stderr } = await readFirstLineThenClose(args, { TILLER_API_KEY: 'k', TILLER_HOME: join(dir, 'home') });
    expect(stderr).toContain('tiller run: the turn aborted: the output closed');
    expect(code).toBe(1);
    expect((await readdir(dir)).filter((name) => name.includes('.lock'))).toEqual([]);
    expect((await tiller(['replay', '-q', session])).stdout).toMatch(/^replay: identical/);
  });

  it('demo stops its turn, closes the session (no lock left) and exits 1', async () => {
    const { code, stderr } = await readFirstLineThenClose(['demo', '--dir', dir, '--delay', '20']);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect((await readdir(dir)).filter((name) => name.includes('.lock'))).toEqual([]);
    // The reader may go before the turn starts: then there is no turn to replay, but the session opens.
    expect((await tiller(['show', join(dir, 'session.jsonl')])).code).toBe(0);
  });
});
