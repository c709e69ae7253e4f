import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain node:http server of a process's own (metrics, health probes). */
export interface PortServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Listens on `port` (0: a free one) with `handler`; rejects when the port cannot be taken. */
export async function serveOnPort(port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<PortServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
