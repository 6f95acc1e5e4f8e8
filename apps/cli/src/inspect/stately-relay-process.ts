// Stately's relay in a process of its own: its server offers no way to end the connections of
// the pages watching it, so it is stopped by ending this process. It ends with its parent too:
// the IPC channel closes when the parent goes, however it went.
import { Server } from 'node:http';
import { createInspectorServer } from '@statelyai/inspect/server';

// Stately's server takes a port but no address, and would listen on every interface. The turn's
// events are the user's data: this process serves them on loopback only.
const listen = Server.prototype.listen as (this: Server, ...args: unknown[]) => Server;
Server.prototype.listen = function listenOnLoopback(this: Server, ...args: unknown[]): Server {
  return typeof args[0] === 'number' ? listen.call(this, args[0], '127.0.0.1', ...args.slice(1)) : listen.apply(this, args);
} as typeof Server.prototype.listen;

const port = Number(process.argv[2]);
createInspectorServer({ port, autoOpen: false });
process.on('disconnect', () => process.exit(0));
