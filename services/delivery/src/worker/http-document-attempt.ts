import type { HttpTransportParameters } from '@formcast/contracts';
import { httpResult, type AttemptResult } from '../domain/attempt-outcome';
import type { Delivery, DeliveryDocument, Destination } from '../domain/records';
import { secretsInForce } from '../domain/signing-secrets';
import { webhookHeaders } from '../domain/signing';
import { RenderError } from '../render/render-pool';
import type { HttpSender } from '../sender/http-sender';
import type { NewAttempt } from '../store';
import { DocumentRefused, documentOf, type DocumentDeps } from './delivery-document';
import type { LeaseHold } from './lease-hold';

/** `attachment; filename="…"; filename*=UTF-8''…`: the document's name, for any receiver. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * One attempt of a document (pdf_format, word_format) over http_transport: rendered once
 * (kept, as for email, the lease held meanwhile), then POSTed as the body with its content
 * type and file name, signed as every webhook is (the signature over the document's bytes).
 */
export async function attemptHttpDocument(
  deps: DocumentDeps & { http: HttpSender },
  delivery: Delivery,
  destination: Destination,
  startedAt: number,
  lease: LeaseHold,
): Promise<{ result: AttemptResult; attempt: NewAttempt }> {
  const attemptedAt = new Date(startedAt).toISOString();
  const started = performance.now();
  const unsent = (kind: 'rejected' | 'failed', error: string) => ({
    result: { kind } as AttemptResult,
    attempt: { attemptedAt, statusCode: null, durationMs: Math.round(performance.now() - started), responseBody: null, error: error.slice(0, 1024) },
  });
  let document: DeliveryDocument;
  try {
    document = await lease.whileWorking(() => documentOf(deps, delivery, destination));
  } catch (error) {
    if (error instanceof RenderError || error instanceof DocumentRefused) return unsent('rejected', `the document could not be made: ${error.message}`);
    return unsent('failed', `the document could not be made now: ${(error as Error).message}`);
  }
  if (!(await lease.stillMine())) return unsent('failed', 'the lease ran out before sending: another worker has the delivery; nothing sent');
  const { uri, headers = {} } = destination.transport.parameters as HttpTransportParameters;
  const sentAt = deps.now();
  const signed = webhookHeaders(delivery.webhookId, Math.floor(sentAt / 1000), document.bytes, secretsInForce(destination.secrets, sentAt));
  const answer = await deps.http.send({
    uri,
    headers: { 'user-agent': 'Formcast-Webhooks/1.0', ...headers, 'content-type': document.contentType, 'content-disposition': contentDisposition(document.fileName), ...signed },
    body: document.bytes,
  });
  return { result: httpResult(answer.statusCode, answer.error), attempt: { attemptedAt, ...answer } };
}
