import { connect, type Socket } from 'node:net';

/**
 * A client connection written byte by byte, for what fetch cannot do: headers that never
 * end, a body slower or shorter than its Content-Length, `Expect: 100-continue`.
 */
export class RawConnection {
  private received = Buffer.alloc(0);
  readonly closed: Promise<void>;
  /** The first error of the connection (EPIPE, ECONNRESET…), if any. */
  error: NodeJS.ErrnoException | undefined;
  isClosed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('error', (error: NodeJS.ErrnoException) => (this.error ??= error));
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        resolve();
      }),
    );
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Everything the server sent so far, as text. */
  get text(): string {
    return this.received.toString('latin1');
  }

  /** Writes and waits until the socket took it; false once the connection failed or closed. */
  write(data: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || this.error) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(data, (error) => resolve(!error)));
  }

  /** Resolves once the server's output matches `pattern`, or rejects after `timeoutMs`. */
  async waitForText(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.text)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(this.text.slice(0, 300))}`);
      if (this.isClosed && !pattern.test(this.text)) throw new Error(`closed without ${pattern}; got ${JSON.stringify(this.text.slice(0, 300))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.text;
  }

  /** Resolves true once the server closed the connection, false after `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.closed.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A request head, CRLF-terminated, with `Host` and the given headers. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:x`).toString('base64')}`;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
