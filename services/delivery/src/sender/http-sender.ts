import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isHttpsUri } from '@formcast/contracts';
import { BoundedCache } from '@formcast/platform';
import { AddressRefusedError, guardedLookup, literalRefusal, systemResolver, type Resolver } from './address-guard';

/** How much of an answer is read and kept; the rest is never read. */
export const keptAnswerBytes = 1024;

export interface HttpSenderOptions {
  /** One attempt, from connecting to the end of what is read of the answer. */
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Name resolution (tests give their own to play DNS rebinding). */
  resolve?: Resolver;
}

export interface HttpDelivery {
  uri: string;
  headers: Record<string, string>;
  /** Text (JSON, XML) or bytes (a PDF, a .docx). */
  body: string | Buffer;
}

/** What one POST came to. */
export interface HttpAnswer {
  /** null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** The first `keptAnswerBytes` of the answer, as text; null when none came. */
  responseBody: string | null;
  /** Why the attempt failed without an answer, or with one that is not taken (a redirect). */
  error: string | null;
}

/**
 * POSTs deliveries with node:http (already loaded by every process; undici was ~4 MB of
 * heap more in each, which the embedded process could not spare under issue 7's 150 MB):
 * keep-alive agents (connections kept per origin), a total timeout per attempt, no redirect
 * followed, only the first 1 KB of an answer read, and every connection checked against
 * the address policy as it is made.
 */
export class HttpSender {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;
  private readonly lookup: LookupFunction;
  /** URIs whose literal-address check is kept (one per destination, about). */
  private readonly literalRefusals = new BoundedCache<string, string | null>(4096);

  constructor(private readonly options: HttpSenderOptions) {
    this.http = new HttpAgent({ keepAlive: true });
    this.https = new HttpsAgent({ keepAlive: true });
    this.lookup = guardedLookup(options.allowPrivateNetworks, options.resolve ?? systemResolver);
  }

  async send(delivery: HttpDelivery): Promise<HttpAnswer> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // Connections to an IP address skip the lookup: checked here instead.
    const refused = this.literalRefusal(delivery.uri);
    if (refused) return { statusCode: null, durationMs: elapsed(), responseBody: null, error: refused };
    // From connecting to the end of what is read: one deadline for the whole attempt. Its
    // timer is cleared when the attempt ends: AbortSignal.timeout's fired anyway, seconds
    // after every delivery, making an error and an abort event nobody heard (issue 24).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    let statusCode: number | null = null;
    try {
      const response = await this.post(delivery, deadline.signal);
      statusCode = response.statusCode ?? null;
      const kept = await firstBytes(response, keptAnswerBytes);
      const location = response.headers['location'];
      const error = statusCode !== null && statusCode >= 300 && statusCode < 400 ? `redirects are not followed${location ? ` (Location: ${location})` : ''}` : null;
      return { statusCode, durationMs: elapsed(), responseBody: kept.toString('utf8'), error };
    } catch (error) {
      return { statusCode, durationMs: elapsed(), responseBody: null, error: deadline.signal.aborted ? this.timedOut() : describe(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * literalRefusal, kept by URI: its answer is the URI's alone, and parsing the URI and the
   * address on every attempt of a destination was 1.4% of the delivery service's CPU (issue 24).
   */
  private literalRefusal(uri: string): string | null {
    return this.literalRefusals.getOrMake(uri, () => literalRefusal(uri, this.options.allowPrivateNetworks));
  }

  async close(): Promise<void> {
    this.http.destroy();
    this.https.destroy();
  }

  /**
   * A kept-alive connection may have been closed by the receiver while idle (Node's servers
   * close them after 5 s) just as it is reused: the request then fails before any answer
   * (ECONNRESET, EPIPE, "socket hang up"). That failure says nothing of the receiver, so
   * the request is sent again once on a new connection, as Node's documentation advises
   * (`request.reusedSocket`).
   */
  private async post(delivery: HttpDelivery, signal: AbortSignal): Promise<IncomingMessage> {
    try {
      return await this.postOnce(delivery, signal);
    } catch (error) {
      if (!(error instanceof ReusedSocketClosed) || signal.aborted) throw error instanceof ReusedSocketClosed ? error.cause : error;
      return this.postOnce(delivery, signal, { freshConnection: true });
    }
  }

  private postOnce(delivery: HttpDelivery, signal: AbortSignal, { freshConnection = false } = {}): Promise<IncomingMessage> {
    // The scheme in any case (HTTPS://…), as the URL check that saved it reads it.
    const https = isHttpsUri(delivery.uri);
    const agent = https ? this.https : this.http;
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
      lookup: this.lookup,
      signal,
    };
    // A fresh connection: the agent would hand out another idle socket, maybe closed too.
    if (freshConnection) options.agent = false;
    else options.agent = agent;
    return new Promise((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(delivery.uri, options, resolve);
      request.on('error', (error: NodeJS.ErrnoException) => {
        const closedWhileIdle = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up');
        reject(closedWhileIdle ? new ReusedSocketClosed(error) : error);
      });
      request.end(delivery.body);
    });
  }

  private timedOut(): string {
    return `no answer within ${this.options.timeoutMs} ms`;
  }
}

/** A kept-alive connection found closed as it was reused: sent again on a new one. */
class ReusedSocketClosed extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

function describe(error: unknown): string {
  const { code, message, cause } = error as { code?: string; message?: string; cause?: unknown };
  if (error instanceof AddressRefusedError) return error.message;
  if (cause instanceof AddressRefusedError) return cause.message;
  // Both families refused (localhost): an AggregateError, whose message is empty.
  return message || code || String(error);
}

/**
 * The first `limit` bytes of a body. Reading stops there: leaving the loop destroys the
 * stream, which closes the connection rather than read the rest (a 10 MB answer costs
 * 1 KB). An answer shorter than that is read to its end, and its connection kept alive.
 */
async function firstBytes(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    // Copied: a subarray would hold the whole chunk.
    kept.push(Buffer.from(chunk.subarray(0, limit - size)));
    size += Math.min(chunk.length, limit - size);
    if (size >= limit) break;
  }
  return Buffer.concat(kept);
}
