import type { Bus } from '@formcast/bus';
import { recordDeliveryAttempt } from '@formcast/metrics';
import { dispatchResult, httpResult, type AttemptResult } from '../domain/attempt-outcome';
import { secretsInForce } from '../domain/signing-secrets';
import { webhookHeaders } from '../domain/signing';
import { sendDispatch } from '../sender/dispatch-sender';
import type { HttpSender } from '../sender/http-sender';
import type { ClaimedDelivery, NewAttempt } from '../store';
import { attemptEmail, type EmailAttemptDeps } from './email-attempt';
import { attemptHttpDocument } from './http-document-attempt';
import { leaseHold, unleased } from './lease-hold';

export interface AttemptDeps {
  http: HttpSender;
  bus: Bus;
  /** How long a dispatch waits for push's answer. */
  commandTimeoutMs: number;
  /** Epoch ms (tests move it). */
  now: () => number;
  /** Documents (email destinations, PDF or .docx over HTTP): the store, the render pool, the email sender; without it they fail. */
  email?: Omit<EmailAttemptDeps, 'bus' | 'commandTimeoutMs' | 'now'>;
  /** The worker's lease: an attempt that renders extends it meanwhile, and sends only while it holds it. */
  leaseMs?: number;
}

/** Sends a claimed delivery once, by its destination's transport, and says what came of it. */
export type AttemptDelivery = (claimed: ClaimedDelivery) => Promise<{ result: AttemptResult; attempt: NewAttempt }>;

/** attemptDelivery, each attempt counted by transport and outcome (metrics). */
export function attemptDelivery(deps: AttemptDeps): AttemptDelivery {
  const attempt = sendOnce(deps);
  return async (claimed) => {
    const started = performance.now();
    const done = await attempt(claimed);
    recordDeliveryAttempt(claimed.destination.transport.type, done.result.kind, (performance.now() - started) / 1000);
    return done;
  };
}

function sendOnce(deps: AttemptDeps): AttemptDelivery {
  return async ({ delivery, destination, claimToken }) => {
    const startedAt = deps.now();
    const attemptedAt = new Date(startedAt).toISOString();
    const isDocument = destination.transport.type === 'email_transport' || destination.format === 'pdf_format' || destination.format === 'word_format';
    if (isDocument) {
      if (!deps.email) throw new Error('documents need the render pool and the store');
      const documentDeps = { ...deps.email, bus: deps.bus, commandTimeoutMs: deps.commandTimeoutMs, now: deps.now };
      const lease = deps.leaseMs ? leaseHold(deps.email.store, { deliveryId: delivery.id, claimToken }, deps.leaseMs, deps.now) : unleased;
      if (destination.transport.type === 'email_transport') return attemptEmail(documentDeps, delivery, destination, attemptedAt, lease);
      return attemptHttpDocument({ ...documentDeps, http: deps.http }, delivery, destination, startedAt, lease);
    }
    if (destination.transport.type === 'email_transport') throw new Error('unreachable: email is a document');
    if (destination.transport.type === 'dispatch_transport') {
      const answer = await sendDispatch(deps.bus, delivery, deps.commandTimeoutMs);
      return {
        result: dispatchResult(answer.errorCode),
        attempt: { attemptedAt, statusCode: null, durationMs: answer.durationMs, responseBody: answer.responseBody, error: answer.error },
      };
    }
    const { uri, headers = {} } = destination.transport.parameters;
    const signed = webhookHeaders(delivery.webhookId, Math.floor(startedAt / 1000), delivery.body, secretsInForce(destination.secrets, startedAt));
    const answer = await deps.http.send({
      uri,
      headers: { 'user-agent': 'Formcast-Webhooks/1.0', ...headers, 'content-type': delivery.contentType, ...signed },
      body: delivery.body,
    });
    return { result: httpResult(answer.statusCode, answer.error), attempt: { attemptedAt, ...answer } };
  };
}
