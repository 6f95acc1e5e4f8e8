import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { describeThrown } from '@tiller/shell';
import { withConfig, type InspectorConfig } from '../page-config.js';
import { followLines } from './follow-lines.js';
import { pageHtml } from './page-html.js';
import { resolveInspectorSource, type InspectorSource } from './resolve-source.js';
import { checkServeInspectorOptions, type ServeInspectorOptions } from './serve-inspector-options.js';

export type { ServeInspectorOptions };

export interface InspectorServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  source: InspectorSource;
  /** Stops the server and ends every open stream. */
  close(): Promise<void>;
}

/**
 * Serves the inspector page and the files it inspects on 127.0.0.1 only. Routes: `/` the page,
 * `/journal` and `/session` the files, `/events` the journal as server-sent events (one line per
 * event, its line number as the id; a client that reconnects with Last-Event-ID, or asks
 * `?after=N`, gets the lines after that one; nothing is ever dropped from the start).
 */
export async function serveInspector(given: ServeInspectorOptions): Promise<InspectorServer> {
  const options = checkServeInspectorOptions(given);
  const source = await resolveInspectorSource(options.file, { waitForJournal: options.follow === true });
  const html = await pageHtml();
  const streams = new Set<AbortController>();
  let port = 0;

  // A live run's session file may not be there yet: then the page grows its tree from the replay.
  const session = source.session && existsSync(source.session) ? { sessionUrl: '/session', sessionName: basename(source.session) } : {};
  const config: InspectorConfig = options.follow
    ? { name: source.name, eventsUrl: '/events', ...session }
    : { name: source.name, journalUrl: '/journal', ...session };
  const page = withConfig(html, config);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // Only this machine's names: a page elsewhere that rebinds a host name to 127.0.0.1 gets nothing.
    const host = request.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(response, 403, 'text/plain', 'forbidden host');
    const url = new URL(request.url ?? '/', `http://${host}`);
    switch (url.pathname) {
      case '/':
      case '/index.html':
        return send(response, 200, 'text/html; charset=utf-8', page);
      case '/journal':
        return sendFile(response, source.journal);
      case '/session':
        return source.session ? sendFile(response, source.session) : send(response, 404, 'text/plain', 'no session file');
      case '/events':
        return stream(request, response, url);
      default:
        return send(response, 404, 'text/plain', 'not found');
    }
  };

  const stream = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const resumeFrom = Number(request.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0);
    const controller = new AbortController();
    streams.add(controller);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.write('retry: 1000\n\n');
    request.on('close', () => controller.abort());
    followLines(source.journal, (line, n) => response.write(`id: ${n}\ndata: ${line}\n\n`), {
      after: Number.isFinite(resumeFrom) ? resumeFrom : 0,
      signal: controller.signal,
      pollMs: 100,
    })
      // A journal that cannot be read ends this stream, said in a comment line; the page asks again
      // after its retry, from the last line it has, and the server goes on.
      // (one line: a line break would start another field of the event stream).
      .catch((error: unknown) => response.write(`: cannot read ${source.journal}: ${describeThrown(error).replace(/\s*\n\s*/g, ' ')}\n\n`))
      .finally(() => {
        streams.delete(controller);
        response.end();
      });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, 'text/plain', String((error as Error).message)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  const close = async () => {
    for (const controller of streams) controller.abort();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  try {
    options.onListening?.(url);
  } catch (error) {
    // The caller never gets the server to close: close it here rather than leave the port held.
    await close();
    throw error;
  }
  return { url, port, source, close };
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

async function sendFile(response: ServerResponse, path: string): Promise<void> {
  try {
    send(response, 200, 'application/x-ndjson; charset=utf-8', await readFile(path, 'utf8'));
  } catch {
    send(response, 404, 'text/plain', `${path} is not there`);
  }
}
