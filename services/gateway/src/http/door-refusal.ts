import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ExpiringCache } from '@formcast/platform';

/**
 * Refusing a request at the door (load-shedding.ts): as soon as its headers are read, before
 * the request context, the access log, metrics, body reading, routing and authentication,
 * whose cost is what an overloaded gateway cannot spend on every request of a flood. Only a
 * request that is certainly answered in JSON, with no body or a small one: anything else
 * takes the whole way and is refused where the route knows its format and its body is
 * drained as any refused body is.
 */

/** Bodies up to this are left to Node to read and drop after the answer (keep-alive stays). */
const smallBodyBytes = 64 * 1024;

/** Paths never shed: the probes (an overloaded pod stays in the Service: taking it out only moves its load) and /metrics. */
export const neverShed = new Set(['/healthz', '/readyz', '/metrics']);

const mentionsJson = (value: string | undefined) => value !== undefined && /\bjson\b/i.test(value);

/** Whether `req` may be answered at the door: certainly JSON, a small body or none, no `Expect`, not a probe. */
export function refusableAtTheDoor(req: Request): boolean {
  const { headers } = req;
  if (headers.expect !== undefined || headers['transfer-encoding'] !== undefined) return false;
  if (Number(headers['content-length'] ?? 0) > smallBodyBytes) return false;
  const path = req.path;
  if (neverShed.has(path)) return false;
  if (/\.json$/i.test(path)) return true;
  if (/\.[A-Za-z0-9]+$/.test(path)) return false;
  return req.method !== 'GET' && req.method !== 'HEAD' ? mentionsJson(headers['content-type']) : mentionsJson(headers.accept) && !headers.accept!.startsWith('*/*');
}

/** The 503 as the error handler writes it in JSON (`Retry-After: 1`, the reason in `Message` too), written at once. */
export function refuseAtTheDoor(res: Response, message: string): void {
  const body = JSON.stringify({ status: '503', error: 'Service Unavailable', message });
  res.writeHead(503, {
    'Retry-After': '1',
    Message: message,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The organization an `Authorization` header was last authenticated for, learned from the
 * requests that passed authentication, so that its organization's bound can be judged at
 * the door. Kept by the header's SHA-256 (no token in memory longer than its request), at
 * most `capacity` of them (the oldest forgotten first), each for `ttlMs`: a revoked token is
 * forgotten within that, and until then its requests are only ever refused with 503 while
 * its organization is over its bound, never let in.
 */
export class KnownAuthorizations {
  private readonly organizations: ExpiringCache<string, number>;

  constructor(
    capacity = 10_000,
    private readonly ttlMs = 5_000,
  ) {
    this.organizations = new ExpiringCache({ ttlMs, maxEntries: capacity });
  }

  learn(authorization: string | undefined, orgId: number): void {
    if (authorization === undefined) return;
    const key = hash('sha256', authorization, 'base64');
    // Learned again only past half its time: a flood's every request would otherwise churn the map.
    if (this.organizations.get(key) === orgId && this.organizations.remainingMs(key) > this.ttlMs / 2) return;
    this.organizations.set(key, orgId);
  }

  organizationOf(authorization: string | undefined): number | undefined {
    if (authorization === undefined) return undefined;
    return this.organizations.get(hash('sha256', authorization, 'base64'));
  }
}
