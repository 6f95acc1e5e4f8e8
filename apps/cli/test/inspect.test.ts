import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tillerInProcess } from './in-process.js';
import { repoRoot, startTiller, tiller, tillerCommand } from './tiller.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let dir: string;
let journal: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-inspect-'));
  const demo = await tiller(['demo', '--dir', dir, '--delay', '0']);
  expect(demo.code).toBe(0);
  journal = join(dir, 'session.journal.jsonl');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('tiller inspect', () => {
  it('--html to a folder or into a folder that does not exist is one line with exit 3', async () => {
    const into = await tillerInProcess(['inspect', join(dir, 'session.jsonl'), '--html', dir]);
    expect(into.code).toBe(3);
    expect(into.stderr.trim().split('\n')).toEqual([`tiller inspect: --html: cannot write ${dir}: it is a folder; give the path of a file in it`]);
    const missing = await tillerInProcess(['inspect', join(dir, 'session.jsonl'), '--html', join(dir, 'none', 'x.html')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim().split('\n')).toEqual([`tiller inspect: --html: cannot write ${join(dir, 'none', 'x.html')}: the folder ${join(dir, 'none')} does not exist; create it first`]);
  });

  it('--port on a port in use says so in one line and exits 1, the code of a command that could not do its work', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const run = await tillerInProcess(['inspect', journal, '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([`tiller inspect: --port ${port}: the port is in use on 127.0.0.1; give another, or leave --port out for a free one`]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('writes one HTML file with the recorded journal inside', async () => {
    const out = join(dir, 'turn.html');
    const run = await tiller(['inspect', join(dir, 'session.jsonl'), '--html', out]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(out);
    const html = await readFile(out, 'utf8');
    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string; input?: { type: string; turnId?: string } });
    const turnId = lines.find((l) => l.input?.type === 'turn.start')!.input!.turnId!;
    // The journal travels inside the page: no request is needed to open it.
    expect(html).toContain('<html');
    expect(html).toContain('tiller.journal');
    expect(html).toContain(turnId);
  });

  it('serves the page and the journal on 127.0.0.1 until Ctrl-C', async () => {
    const child = spawn(process.execPath, [...tillerCommand, 'inspect', journal], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (found) resolve(found[0]);
        });
        child.on('close', (code) => reject(new Error(`tiller inspect exited (${code}) before printing its URL: ${out}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const served = await fetch(new URL('journal', url));
      expect(await served.text()).toBe(await readFile(journal, 'utf8'));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('says in one line what is wrong with a file it cannot inspect', async () => {
    const run = await tiller(['inspect', join(dir, 'nothing-here.jsonl')]);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/tiller inspect: .*nothing-here\.jsonl: no such file/);
  });

  it('tiller demo --inspect serves the run live: the journal streams to the page as it is written', async () => {
    const live = await mkdtemp(join(tmpdir(), 'tiller-demo-inspect-'));
    const demo = startTiller(['demo', '--inspect', '--dir', live, '--delay', '0']);
    try {
      const [url] = await demo.printed(/http:\/\/127\.0\.0\.1:\d+\//);
      const events = await fetch(new URL('events', url));
      const reader = events.body!.getReader();
      await demo.printed(/replay: identical/);
      const recorded = (await readFile(join(live, 'session.journal.jsonl'), 'utf8')).trim().split('\n');
      let streamed = '';
      while ((streamed.match(/^data:/gm) ?? []).length < recorded.length) {
        const { value, done } = await reader.read();
        if (done) break;
        streamed += new TextDecoder().decode(value);
      }
      await reader.cancel();
      // Every line of the journal reached the page, from the header on, while the run wrote it.
      expect((streamed.match(/^data:/gm) ?? []).length).toBe(recorded.length);
      expect(await demo.interrupt()).toBe(0);
    } finally {
      demo.kill();
      await rm(live, { recursive: true, force: true });
    }
  });
});
