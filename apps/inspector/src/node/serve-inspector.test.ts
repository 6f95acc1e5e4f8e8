import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession, type RecordedFiles } from '../../scripts/make-journals.js';
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
      expect(page.body).toContain('window.__TILLER_INSPECTOR__={"name":"notebook.jsonl","journalUrl":"/journal","sessionUrl":"/session"}');
      expect((await get(server.port, '/journal', `localhost:${server.port}`)).body).toBe(await readFile(files.journalFile, 'utf8'));
      expect((await get(server.port, '/session', `127.0.0.1:${server.port}`)).body).toBe(await readFile(files.sessionFile, 'utf8'));
      expect(await get(server.port, '/journal', 'attacker.example')).toEqual({ status: 403, body: 'forbidden host' });
      expect((await get(server.port, '/../etc/passwd', `127.0.0.1:${server.port}`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
