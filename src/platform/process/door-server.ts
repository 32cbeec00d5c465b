/**
 * A run's door (the gateway door, the egress proxy) as a server that can be shut at once: it keeps
 * every connection — and every socket a connection hands off, such as a CONNECT tunnel's upstream —
 * so that closing the door when the run ends cuts what is still open through it.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

export interface Door {
  /** Not yet listening: the run picks its socket. */
  readonly server: Server;
  /** Stops listening and cuts every connection still open. */
  close(): Promise<void>;
}

/** The door of `server` (no request timeout of its own: a model's stream or a long verb passes), and how to keep a socket it opens. */
export function doorOf(server: Server): Door & { keep(socket: Duplex): void } {
  const sockets = new Set<Duplex>();
  const keep = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  server.requestTimeout = 0;
  server.on('connection', keep);
  return {
    server,
    keep,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
