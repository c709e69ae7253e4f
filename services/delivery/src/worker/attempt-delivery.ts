import type { Bus } from '@formcast/bus';
import { recordDeliveryAttempt } from '@formcast/metrics';
import { dispatchResult, httpResult, type AttemptResult } from '../domain/attempt-outcome';
import { secretsInForce } from '../domain/signing-secrets';
import { webhookHeaders } from '../domain/signing';
import { sendDispatch } from '../sender/dispatch-sender';
import type { HttpSender } from '../sender/http-sender';
import type { ClaimedDelivery, NewAttempt } from '../store';
import { attemptEmail, type EmailAttemptDeps } from './email-attempt';

export interface AttemptDeps {
  http: HttpSender;
  bus: Bus;
  /** How long a dispatch waits for push's answer. */
  commandTimeoutMs: number;
  /** Epoch ms (tests move it). */
  now: () => number;
  /** Email destinations: the store (documents), the render pool, the sender; without it they fail. */
  email?: Omit<EmailAttemptDeps, 'bus' | 'commandTimeoutMs' | 'now'>;
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
  return async ({ delivery, destination }) => {
    const startedAt = deps.now();
    const attemptedAt = new Date(startedAt).toISOString();
    if (destination.transport.type === 'email_transport') {
      if (!deps.email) throw new Error('email destinations need the email sender');
      return attemptEmail({ ...deps.email, bus: deps.bus, commandTimeoutMs: deps.commandTimeoutMs, now: deps.now }, delivery, destination, attemptedAt);
    }
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
