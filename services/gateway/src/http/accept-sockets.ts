import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { Server } from 'node:http';

/**
 * Listening sockets on one port, all handing what they accept to one HTTP(S) server.
 *
 * libuv accepts one connection per listening socket per turn of the event loop (libuv#3696,
 * in every Node we run). A turn of a loaded gateway can take 100 ms and more, reading a
 * flood's hundreds of connections: one socket then lets in about ten new connections a
 * second, and a newcomer waits behind every connection already queued in the kernel. Issue
 * 25 measured it: during a flood from 400 connections, another organization's first push on a
 * new connection (and a `/healthz`) waited up to 9 s in the accept queue, while requests on
 * connections already open were answered within 0.4 s. With `count` sockets bound with
 * SO_REUSEPORT, the kernel spreads new connections over them and each turn accepts up to
 * `count`.
 *
 * Linux only (other systems either lack SO_REUSEPORT's load balancing or refuse the option):
 * elsewhere, and with `count` 1, the server listens alone as before.
 */
export function acceptSocketsHere(count: number): number {
  return process.platform === 'linux' && count > 1 ? count : 1;
}

/** Each extra socket, with the promise of its 'close' (once it stopped accepting and its connections ended). */
interface ExtraSocket {
  socket: NetServer;
  closed: Promise<void>;
}

const extraSockets = new WeakMap<Server, ExtraSocket[]>();

/**
 * `server` listening on `port` (0: a free one) with `count` sockets (acceptSocketsHere). A port
 * that another process holds is refused as a single socket's would be: SO_REUSEPORT would
 * otherwise let a second gateway join the first's port and take half its connections, so the
 * port is first bound alone, without the option, and released.
 */
export async function listenWithSockets(server: Server, port: number, count: number): Promise<void> {
  if (count <= 1) {
    await listen(server, { port });
    return;
  }
  if (port !== 0) await provePortFree(port);
  await listen(server, { port, reusePort: true });
  const bound = (server.address() as { port: number }).port;
  const extras: ExtraSocket[] = [];
  extraSockets.set(server, extras);
  // Any caller's close() stops them all from accepting (closeExtraSockets waits for their connections).
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const { socket } of extras) if (socket.listening) socket.close();
    return close(callback);
  };
  // Should one fail to bind, the caller closes `server`, and so the ones bound so far.
  for (let n = 1; n < count; n += 1) {
    // noDelay: as the HTTP server sets on the connections it accepts itself (Node's default).
    const socket = createNetServer({ noDelay: true }, (connection) => server.emit('connection', connection));
    await listen(socket, { port: bound, reusePort: true });
    extras.push({ socket, closed: new Promise((resolve) => socket.once('close', () => resolve())) });
  }
}

/** Closes the extra sockets of `server` (if still open); resolves once the connections they accepted have ended. */
export async function closeExtraSockets(server: Server): Promise<void> {
  const extras = extraSockets.get(server) ?? [];
  for (const { socket } of extras) if (socket.listening) socket.close();
  await Promise.all(extras.map(({ closed }) => closed));
}

/** How many connections each extra socket accepted and still holds (for tests). */
export function extraSocketConnections(server: Server): Promise<number[]> {
  const extras = extraSockets.get(server) ?? [];
  return Promise.all(extras.map(({ socket }) => new Promise<number>((resolve) => socket.getConnections((_error, count) => resolve(count)))));
}

function listen(server: NetServer, options: { port: number; reusePort?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(options, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

async function provePortFree(port: number): Promise<void> {
  const probe = createNetServer();
  await listen(probe, { port });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
