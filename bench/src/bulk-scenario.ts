import type { BenchOrganization } from './api';
import { LatencyLog } from './load';
import type { Row } from './report';
import { oneshotBody } from './request-shape';

/** Items in one bulk request: the most one may carry. */
export const bulkItems = 1000;

export interface BulkResult {
  /** Dispatches created a second, over every request, first sent to last answered. */
  rate: number;
  /** Per request of `bulkItems`. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Items not answered 202 (should be none), and requests not answered 200. */
  failedItems: number;
  failedRequests: number;
}

/** A bulk body of `bulkItems` dispatches, S1's push each, over the organization's devices in turn. */
function bulkBody(org: Pick<BenchOrganization, 'formNamespace' | 'deviceIdentifiers'>, request: number): string {
  const push = JSON.parse(oneshotBody(org.formNamespace)) as Record<string, unknown>;
  const dispatches = Array.from({ length: bulkItems }, (_, i) => ({
    ...push,
    device: org.deviceIdentifiers[(request * bulkItems + i) % org.deviceIdentifiers.length]!,
  }));
  return JSON.stringify({ dispatches });
}

/**
 * S7: `POST /api/v3/dispatches/bulk.json` of 1,000 dispatches (S1's push to each device in
 * turn), `requests` times one after another: dispatches created a second, and each request's
 * time. One request at a time: a bulk request is itself the concurrency.
 */
export async function bulkScenario(origin: string, org: BenchOrganization, requests: number): Promise<BulkResult> {
  const bodies = Array.from({ length: requests }, (_, n) => bulkBody(org, n));
  const latencies = new LatencyLog();
  let failedItems = 0;
  let failedRequests = 0;
  const started = performance.now();
  for (const body of bodies) {
    const sent = performance.now();
    const res = await fetch(`${origin}/api/v3/dispatches/bulk.json`, {
      method: 'POST',
      headers: { authorization: org.authorization, 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    latencies.add(performance.now() - sent);
    if (res.status !== 200) {
      failedRequests += 1;
      failedItems += bulkItems;
      continue;
    }
    const { results } = JSON.parse(text) as { results: Array<{ status: number }> };
    failedItems += results.filter((r) => r.status !== 202).length + (bulkItems - results.length);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    rate: (requests * bulkItems - failedItems) / seconds,
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    requests,
    failedItems,
    failedRequests,
  };
}

/** S7's line of the table, its rate beside the single pushes' (S1 embedded, S2 distributed) when they were measured. */
export function bulkRow(mode: 'embedded' | 'distributed', result: BulkResult, singles?: { id: string; rate: number }): Row {
  return {
    id: 'S7',
    scenario: `${mode}: POST /api/v3/dispatches/bulk.json, ${bulkItems.toLocaleString('en-US')} dispatches a request, ${result.requests} requests one after another`,
    rate: result.rate,
    rateUnit: 'dispatches/s',
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    versus: singles ? `${(result.rate / singles.rate).toFixed(1)}× ${singles.id}'s pushes/s` : undefined,
    target: '',
    note: result.failedItems > 0 ? `${result.failedItems} items not created, ${result.failedRequests} requests not 200` : 'times: a request',
  };
}
