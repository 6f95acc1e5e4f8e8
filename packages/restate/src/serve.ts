import './promise-with-resolvers.js';
import { createServer } from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import { type DurableAgentOptions, resolveDurableOptions } from './durable-options.js';
import { z } from 'zod';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { durableObjects } from './session-object.js';

export interface ServeOptions extends DurableAgentOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: a worker listens where the Restate server can reach it, nowhere else. */
  host?: string;
}

// Checked here, since Node takes a port that is not a number for the path of a Unix socket.
const ListenOptions = z.object({
  port: z
    .number({ error: 'expected a port number from 0 to 65535 (0 picks a free one)' })
    .int('expected a whole port number')
    .min(0, 'expected a port number from 0 to 65535 (0 picks a free one)')
    .max(65_535, 'expected a port number from 0 to 65535 (0 picks a free one)')
    .default(0),
  host: z.string({ error: 'expected a host name or address to listen on' }).min(1, 'expected a host name or address to listen on').default('127.0.0.1'),
});

export interface Worker {
  readonly port: number;
  /** The address to register with Restate (`POST /deployments` on the admin port). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a durable agent's session and inbox objects over HTTP/2, the way Restate calls its
 * workers. Register the worker's address with the Restate server once; every worker behind
 * that address must serve the same agent (same tools, same model, same version of this code).
 */
export async function serve(options: ServeOptions): Promise<Worker> {
  const { port: rawPort, host: rawHost, ...agent } = options;
  const listen = ListenOptions.safeParse({ port: rawPort, host: rawHost });
  if (!listen.success) throw new DurableOptionsError(`serve: invalid options:\n${z.prettifyError(listen.error)}`);
  const { port, host } = listen.data;
  const resolved = resolveDurableOptions(agent, 'serve');
  const { session, inbox } = durableObjects(resolved);
  const server = createServer(restate.createEndpointHandler({ services: [session, inbox] }));
  // Restate keeps its HTTP/2 connection open for minutes; closing the worker ends them.
  const sessions = new Set<import('node:http2').ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    port: bound,
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.destroy();
      }),
  };
}

/** The objects to bind into an endpoint of your own (`restate.endpoint().bind(...)`), when one worker serves more. */
export function durableServices(options: DurableAgentOptions) {
  const { session, inbox } = durableObjects(resolveDurableOptions(options, 'durableServices'));
  return [session, inbox] as const;
}
