import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one request to the receiver brought, as it arrived. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes, untouched (signatures are over these). */
  rawBody: Buffer;
  /** The body as UTF-8 text. */
  body: string;
  receivedAt: number;
}

/** How the receiver answers one request. */
export type ReceiverAnswer =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /** Answers 200, after `delayMs`: past the delivery timeout, the sender has given up by then. */
  | { kind: 'slow'; delayMs: number }
  /** A 200 of `bytes` bytes: `answerBodyPattern` repeated. */
  | { kind: 'large'; bytes: number };

/** The bytes a `large` answer repeats: its first 1 KB is this, 1024 times over. */
export const answerBodyPattern = 'formcast!';

export const answers = {
  ok: (body = 'thanks'): ReceiverAnswer => ({ kind: 'status', status: 200, body }),
  status: (status: number, body = `answered ${status}`): ReceiverAnswer => ({ kind: 'status', status, body }),
  gone: (): ReceiverAnswer => ({ kind: 'status', status: 410, body: 'no such hook any more' }),
  redirect: (location: string): ReceiverAnswer => ({ kind: 'status', status: 302, body: 'moved', headers: { location } }),
  slow: (delayMs: number): ReceiverAnswer => ({ kind: 'slow', delayMs }),
  large: (bytes: number): ReceiverAnswer => ({ kind: 'large', bytes }),
};

/**
 * A real HTTP receiver on 127.0.0.1 for end-to-end tests (node:http), scripted per path:
 * each path answers its script's answers in turn, the last one again and again (an
 * unscripted path answers 200). Every request is recorded once its body has arrived,
 * before it is answered.
 */
export class WebhookReceiver {
  private readonly scripts = new Map<string, ReceiverAnswer[]>();
  private readonly log: ReceivedWebhook[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const path = (req.url ?? '/').split('?')[0]!;
        receiver!.log.push({ method: req.method ?? '', path, headers: req.headers, rawBody, body: rawBody.toString('utf8'), receivedAt: Date.now() });
        receiver!.answer(path, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, (server.address() as AddressInfo).port);
    return receiver;
  }

  /** The URL of `path` on this receiver. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** How `path` answers from now on: these answers in turn, the last one repeated. */
  script(path: string, ...script: ReceiverAnswer[]): string {
    if (script.length === 0) throw new Error('A script needs at least one answer');
    this.scripts.set(path, [...script]);
    return this.url(path);
  }

  /** Everything `path` received, oldest first. */
  received(path: string): ReceivedWebhook[] {
    return this.log.filter((request) => request.path === path);
  }

  close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    return new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private answer(path: string, res: ServerResponse): void {
    const script = this.scripts.get(path);
    const answer = script === undefined ? answers.ok() : script.length > 1 ? script.shift()! : script[0]!;
    // The sender hangs up on slow and large answers: what is written after is dropped.
    res.on('error', () => undefined);
    switch (answer.kind) {
      case 'status':
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body);
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('late');
        }, answer.delayMs);
        this.timers.add(timer);
        return;
      }
      case 'large': {
        const body = Buffer.alloc(answer.bytes, answerBodyPattern);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) }).end(body);
        return;
      }
    }
  }
}

/** The URL of a port on 127.0.0.1 where nothing listens (taken, then given back): a receiver that is down. */
export async function downReceiverUrl(path = '/down'): Promise<string> {
  const receiver = await WebhookReceiver.start();
  const url = receiver.url(path);
  await receiver.close();
  return url;
}
