import type { Server } from 'node:http';

/** Node's own: the interval that checks a server's connections for headersTimeout. */
const intervalKeyDescription = 'http.server.connectionsCheckingInterval';

/** A Timeout as Node keeps it: its callback and period. */
type NodeTimer = NodeJS.Timeout & { _idleTimeout?: number };

const checking = new WeakMap<Server, () => boolean>();

/**
 * Node checks a server's connections for headersTimeout (the 408 that ends a slowloris) on an
 * interval that runs from listen to close: the gateway's, every second, was an idle embedded
 * process's last steady wake-up (issue 24). With no connection open there is nothing to
 * check, so the interval is stopped when the last connection closes and started again, the
 * same check at the same period, when one opens. Should Node's server not have that interval
 * where this looks for it, it is left as Node runs it.
 */
export function checkConnectionsOnlyWhileOpen(server: Server): void {
  let open = 0;
  let key: symbol | undefined;
  let check: (() => void) | undefined;
  let periodMs = 0;
  let asleep = false;
  const record = server as unknown as Record<symbol, NodeTimer | undefined>;
  const sleep = () => {
    if (!key || asleep) return;
    clearInterval(record[key]);
    asleep = true;
  };
  const wake = () => {
    if (!key || !check || !asleep) return;
    const timer = setInterval(check, periodMs);
    timer.unref();
    record[key] = timer;
    asleep = false;
  };
  // Registered after the server's own 'listening' listener, which starts the interval.
  server.on('listening', () => {
    key = Object.getOwnPropertySymbols(server).find((symbol) => symbol.description === intervalKeyDescription);
    const timer = key ? record[key] : undefined;
    const callback = (timer as { _onTimeout?: unknown } | undefined)?._onTimeout;
    if (!timer || typeof callback !== 'function' || !timer._idleTimeout) {
      key = undefined;
      return;
    }
    check = callback as () => void;
    periodMs = timer._idleTimeout;
    asleep = false;
    if (open === 0) sleep();
  });
  server.on('connection', (socket: { once(event: 'close', listener: () => void): void }) => {
    open += 1;
    if (open === 1) wake();
    socket.once('close', () => {
      open -= 1;
      if (open === 0) sleep();
    });
  });
  checking.set(server, () => key !== undefined && !asleep);
}

/** Whether Node's connection check runs now for `server` (for tests). */
export function checksConnections(server: Server): boolean {
  return checking.get(server)?.() ?? true;
}
