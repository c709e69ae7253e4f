import { createServer, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Express } from 'express';
import type { Logger } from '@formcast/platform';
import { acceptSocketsHere, closeExtraSockets, listenWithSockets } from './accept-sockets';
import { holdContinue } from './body-watch';
import { checkConnectionsOnlyWhileOpen } from './connections-check-while-open';
import { defaultHttpTimeouts, type HttpTimeouts } from './http-timeouts';
import { readTlsPair, reloadOnChange, type TlsFiles } from './tls-files';

/** HTTPS instead of HTTP: the certificate and key files, and where their reloads are logged. */
export interface GatewayTls {
  files: TlsFiles;
  logger: Logger;
  /** How often the files are checked for a change (default 1 s). */
  checkIntervalMs?: number;
}

/**
 * The HTTP server of `app` (HTTPS when `tls` is given: HTTP/1.1 over TLS 1.2 or newer, the
 * files taken up again when they change). Headers must arrive within `headersMs` (Node's
 * headersTimeout: 408 and the connection closed), checked every second at most while a
 * connection is open (checkConnectionsOnlyWhileOpen), so a slowloris connection is dropped
 * near that time, not up to 30 s (Node's default interval) later; a TLS
 * handshake gets the same time. Node's requestTimeout is off: it is one value for every route,
 * and the bodies' deadlines grow with each route's limit (watchRequestBodies). `Expect:
 * 100-continue` is left to the body readers (holdContinue), so a refusal reaches the client
 * before it sends the body.
 */
export function createGatewayServer(app: Express, timeouts: HttpTimeouts = defaultHttpTimeouts, tls?: GatewayTls): Server {
  const options: ServerOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: 0,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
  let server: Server;
  if (tls) {
    const pair = readTlsPair(tls.files);
    const httpsServer = createHttpsServer({ ...options, ...pair, ALPNProtocols: ['http/1.1'], handshakeTimeout: timeouts.headersMs }, app);
    reloadOnChange(httpsServer, tls.files, pair, tls.logger, tls.checkIntervalMs);
    server = httpsServer;
  } else {
    server = createServer(options, app);
  }
  checkConnectionsOnlyWhileOpen(server);
  server.on('checkContinue', (req, res) => {
    holdContinue(req, res);
    server.emit('request', req, res);
  });
  return server;
}

/**
 * Serves `app` on `port` (0: a free one) from `acceptSockets` listening sockets (HTTP_ACCEPT_SOCKETS,
 * accept-sockets.ts); rejects naming PORT when it cannot (taken, not allowed, unusable TLS files).
 */
export async function listenOn(
  app: Express,
  port: number,
  timeouts: HttpTimeouts = defaultHttpTimeouts,
  tls?: GatewayTls,
  acceptSockets = 1,
): Promise<Server> {
  const protocol = tls ? 'HTTPS' : 'HTTP';
  const failed = (error: Error) => new Error(`Cannot serve ${protocol} on PORT ${port}: ${error.message}`);
  let server: Server;
  try {
    server = createGatewayServer(app, timeouts, tls);
  } catch (error) {
    throw failed(error as Error);
  }
  try {
    await listenWithSockets(server, port, acceptSocketsHere(acceptSockets));
    return server;
  } catch (error) {
    server.close(); // its 'close' ends the watch of the TLS files
    throw failed(error as Error);
  }
}

/** Stops accepting connections, lets in-flight requests finish, closes idle keep-alives. */
export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await closeExtraSockets(server);
}
