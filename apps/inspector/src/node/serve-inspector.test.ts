import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession, type RecordedFiles } from '../../scripts/make-journals.js';
import { InspectorOptionsError } from '../errors/inspector-options-error.js';
import { serveInspector } from './serve-inspector.js';

let dir: string;
let files: RecordedFiles;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-serve-'));
  files = await recordNotebookSession(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A GET with the Host header a caller chooses (fetch does not let one set it). */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveInspector', () => {
  it('listens on 127.0.0.1 only, serves the page with its config and the files, and refuses other host names', async () => {
    const urls: string[] = [];
    const server = await serveInspector({ file: files.sessionFile, onListening: (url) => urls.push(url) });
    try {
      expect(urls).toEqual([server.url]);
      const page = await get(server.port, '/', `127.0.0.1:${server.port}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('window.__TILLER_INSPECTOR__={"name":"notebook.jsonl","journalUrl":"/journal","sessionUrl":"/session","sessionName":"notebook.jsonl"}');
      expect((await get(server.port, '/journal', `localhost:${server.port}`)).body).toBe(await readFile(files.journalFile, 'utf8'));
      expect((await get(server.port, '/session', `127.0.0.1:${server.port}`)).body).toBe(await readFile(files.sessionFile, 'utf8'));
      expect(await get(server.port, '/journal', 'attacker.example')).toEqual({ status: 403, body: 'forbidden host' });
      expect((await get(server.port, '/../etc/passwd', `127.0.0.1:${server.port}`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('ends the live stream of a journal it cannot read, saying why, and goes on serving (before: an unhandled rejection, which ends the process that serves it)', async () => {
    const live = join(dir, 'live.journal.jsonl');
    const server = await serveInspector({ file: live, follow: true });
    try {
      const host = `127.0.0.1:${server.port}`;
      const events = get(server.port, '/events', host);
      // A folder where the journal is to be: it is there, and its read fails (EISDIR).
      await mkdir(live);
      expect(await events).toEqual({ status: 200, body: `retry: 1000\n\n: cannot read ${live}: EISDIR: illegal operation on a directory, read\n\n` });
      expect((await get(server.port, '/', host)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/** Whether something listens on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('serveInspector: bad options', () => {
  it('refuses each bad option by name before it listens', async () => {
    const file = files.journalFile;
    const heard: string[] = [];
    const onListening = (url: string) => void heard.push(url);
    const cases: Array<[unknown, RegExp]> = [
      [{ file, bogus: 1, onListening }, /^serveInspector: option bogus: unknown option$/],
      [{ file, port: 'abc', onListening }, /^serveInspector: option port: expected a whole number from 0 to 65535, got "abc"$/],
      [{ file, port: -1, onListening }, /^serveInspector: option port: expected a whole number from 0 to 65535, got -1$/],
      [{ file, port: 1.5, onListening }, /^serveInspector: option port: expected a whole number from 0 to 65535, got 1\.5$/],
      [{ file, follow: 'yes', onListening }, /^serveInspector: option follow: expected true or false, got "yes"$/],
      [{ file: 42, onListening }, /^serveInspector: option file: expected the path of a journal or a session file, got 42$/],
      [{ onListening }, /^serveInspector: option file: expected the path of a journal or a session file, got undefined$/],
      [{ file, onListening: 5 }, /^serveInspector: option onListening: expected a function, got 5$/],
      [undefined, /^serveInspector: expected an options object such as \{ file \}, got undefined$/],
    ];
    for (const [options, message] of cases) {
      const error = await serveInspector(options as never).then(() => undefined, (e: unknown) => e);
      expect(InspectorOptionsError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect(error).toMatchObject({ code: 'invalid_options', entryPoint: 'serveInspector' });
    }
    expect(heard).toEqual([]);
  });

  it('closes its server when onListening throws, and rejects with that error', async () => {
    let port = 0;
    const failure = new Error('the host could not print the url');
    const served = serveInspector({
      file: files.journalFile,
      onListening: (url) => {
        port = Number(new URL(url).port);
        throw failure;
      },
    });
    await expect(served).rejects.toBe(failure);
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  });
});
