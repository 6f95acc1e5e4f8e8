import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP load balancer on 127.0.0.1, the kind that sits in front of a pool of workers: each new
 * connection goes to the next backend that accepts it, round robin. Restate knows only the
 * balancer's address; when a worker dies, its connections drop and the retries reach another.
 */
export interface Balancer {
  readonly port: number;
  readonly url: string;
  /** Replaces the pool (a new worker joins, a dead one leaves); open connections stay where they are. */
  setBackends(ports: readonly number[]): void;
  close(): Promise<void>;
}

export async function startBalancer(initial: readonly number[]): Promise<Balancer> {
  let backends = [...initial];
  let next = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    // Small HTTP/2 frames go out at once: Nagle's delay would add tens of ms to every step.
    client.setNoDelay(true);
    client.pause();
    const attempt = (tries: number) => {
      if (tries >= backends.length) {
        client.destroy();
        return;
      }
      const port = backends[next++ % backends.length]!;
      const upstream = connect({ port, host: '127.0.0.1', noDelay: true });
      upstream.once('connect', () => {
        track(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.once('error', () => {
        if (!upstream.remoteAddress) attempt(tries + 1);
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    setBackends(ports) {
      backends = [...ports];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
