import { Agent, request } from 'node:http';
import type { BenchOrganization } from './api';
import type { Child } from './children';
import { runLoad, LatencyLog, type LoadResult } from './load';
import { submissionBody, tagQuestion } from './request-shape';

/**
 * S6 and its anchor A3: submissions delivered to a local receiver (a process of its own,
 * servers/webhook-receiver.ts), timed from the moment each was sent to the moment its body
 * had arrived at the receiver. Both clocks are `performance.timeOrigin + performance.now()`
 * on the same machine.
 */

/** Epoch ms to the microsecond, comparable across processes of this machine. */
const preciseNow = () => performance.timeOrigin + performance.now();

export interface DeliveryResult {
  /** Submissions (or anchor posts) that arrived. */
  delivered: number;
  /** Arrived a second, from the first sent to the last arrived. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** How long the whole took, in s. */
  seconds: number;
  /** S6: submissions the API accepted a second (its answers, as autocannon saw them). */
  submitted?: LoadResult;
}

/** The receiver process, through its IPC. */
export class ReceiverClient {
  constructor(readonly child: Child) {}

  private async ask<T>(message: object, key: string): Promise<T> {
    this.child.send(message);
    return (await this.child.message<Record<string, T>>((m) => m !== null && typeof m === 'object' && key in m))[key]!;
  }

  /** A delivery body that arrived, as text. */
  sample(): Promise<string | null> {
    return this.ask({ sample: true }, 'sample');
  }

  async clear(): Promise<void> {
    await this.ask({ clear: true }, 'cleared');
  }

  /** Waits until `count` tags starting with `prefix` have arrived (or throws after `timeoutMs`); returns their arrival times. */
  async waitFor(prefix: string, count: number, timeoutMs = 120_000): Promise<Map<string, number>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counted = await this.ask<number>({ count: prefix }, 'counted');
      if (counted >= count) return new Map(await this.ask<Array<[string, number]>>({ arrivals: prefix }, 'arrivals'));
      if (Date.now() > deadline) throw new Error(`only ${counted} of ${count} deliveries tagged ${prefix} arrived within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Rate and latency of what arrived, from when each was sent. */
function deliveryResult(sentAt: Map<string, number>, arrived: Map<string, number>): Omit<DeliveryResult, 'submitted'> {
  const latencies = new LatencyLog();
  let first = Infinity;
  let last = -Infinity;
  for (const [tag, at] of arrived) {
    const sent = sentAt.get(tag);
    if (sent === undefined) continue;
    latencies.add(at - sent);
    first = Math.min(first, sent);
    last = Math.max(last, at);
  }
  const seconds = (last - first) / 1000;
  return { delivered: arrived.size, rate: arrived.size / seconds, p50Ms: latencies.percentile(50), p99Ms: latencies.percentile(99), seconds };
}

/**
 * S6 on one system: `count` submissions of the organization's template by its devices in
 * turn (`POST /device/forms/<form_id>/submissions`), from `connections` connections at once,
 * each a JSON delivery of the template's webhook destination to the receiver. Resolves once
 * every accepted one arrived.
 */
export async function submitAndDeliver(
  origin: string,
  org: BenchOrganization,
  receiver: ReceiverClient,
  options: { tagPrefix: string; count: number; connections: number },
): Promise<DeliveryResult> {
  const sentAt = new Map<string, number>();
  const devices = org.deviceIdentifiers.map((identifier) => `Bearer ${org.deviceSecrets.get(identifier)}`);
  const submitted = await runLoad({
    origin,
    method: 'POST',
    path: () => `/device/forms/${org.formId}/submissions`,
    perRequest: (n) => {
      const tag = `${options.tagPrefix}${n}`;
      sentAt.set(tag, preciseNow());
      return { headers: { authorization: devices[n % devices.length]! }, body: submissionBody(tag) };
    },
    body: submissionBody(''),
    connections: options.connections,
    amount: options.count,
    expectStatus: 201,
  });
  // autocannon may build a request more than it sends: no tag of that one arrives.
  const arrived = await receiver.waitFor(options.tagPrefix, submitted.ok);
  return { ...deliveryResult(sentAt, arrived), submitted };
}

/**
 * A3: the anchor of S6. A bare Node HTTP client (node:http, keep-alive, `connections`
 * sockets: as many as the delivery service sends to one destination at once) posting the
 * body S6 delivered, with the same headers, to the same receiver, `count` times.
 */
export async function postBare(
  uri: string,
  deliveredBody: string,
  receiver: ReceiverClient,
  options: { tagPrefix: string; count: number; connections: number },
): Promise<DeliveryResult> {
  const template = JSON.parse(deliveredBody) as { answers: Record<string, { value: unknown }> };
  const bodies = Array.from({ length: options.count }, (_, n) => {
    template.answers[tagQuestion] = { value: `${options.tagPrefix}${n}` };
    return JSON.stringify(template);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(uri);
  const sentAt = new Map<string, number>();
  // The headers a delivery carries, the same size, not signed (the receiver does not check).
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Formcast-Webhooks/1.0',
    'webhook-id': `msg_${'0'.repeat(32)}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${'A'.repeat(44)}`,
  };
  const post = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const body = bodies[n]!;
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.once('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`the receiver answered ${res.statusCode}`))));
      });
      req.once('error', reject);
      sentAt.set(`${options.tagPrefix}${n}`, preciseNow());
      req.end(body);
    });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (next < options.count) await post(next++);
      }),
    );
  } finally {
    agent.destroy();
  }
  return deliveryResult(sentAt, await receiver.waitFor(options.tagPrefix, options.count));
}
