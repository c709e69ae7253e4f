import diagnosticsChannel from 'node:diagnostics_channel';
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';

/** A `Retry-After` longer than this is taken as this (the SDK caps its own waits at a minute too). */
export const maxRetryAfterMs = 5 * 60 * 1000;

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return Math.min(ms, maxRetryAfterMs);
}

const responseChannel = 'http.client.response.finish';

/**
 * Remembers the latest `Retry-After` FCM answered on one agent's requests. firebase-admin's
 * errors do not carry response headers, so the sender watches the responses themselves
 * (Node's documented `http.client.response.finish` diagnostics channel, filtered to its
 * own agent) and asks afterwards how long FCM wants it to wait.
 */
export class RetryAfterWatch {
  private resumeAt = 0;
  private readonly onResponse = (message: unknown): void => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if ((request as ClientRequest & { agent?: unknown }).agent !== this.agent) return;
    const header = response.headers['retry-after'];
    const now = this.now();
    const ms = parseRetryAfter(Array.isArray(header) ? header[0] : header, now);
    if (ms !== undefined) this.resumeAt = Math.max(this.resumeAt, now + ms);
  };

  constructor(
    private readonly agent: Agent,
    private readonly now: () => number = Date.now,
  ) {
    diagnosticsChannel.subscribe(responseChannel, this.onResponse);
  }

  /** How long FCM still wants us to wait, or undefined when it said nothing (or the time has passed). */
  remainingMs(): number | undefined {
    const remaining = this.resumeAt - this.now();
    return remaining > 0 ? remaining : undefined;
  }

  stop(): void {
    diagnosticsChannel.unsubscribe(responseChannel, this.onResponse);
  }
}
