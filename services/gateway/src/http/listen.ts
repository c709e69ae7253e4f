import type { Server } from 'node:http';
import type { Express } from 'express';

/** Serves `app` on `port` (0: a free one); rejects naming PORT when it cannot (taken, not allowed). */
export function listenOn(app: Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, (error?: Error) => {
      if (error) reject(new Error(`Cannot serve HTTP on PORT ${port}: ${error.message}`));
      else resolve(server);
    });
  });
}

/** Stops accepting connections, lets in-flight requests finish, closes idle keep-alives. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
