import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, type EmailTransportParameters, type ResolvedDevice } from '@formcast/contracts';
import { nullIfNotFound } from '@formcast/platform';
import { smtpResult, type AttemptResult } from '../domain/attempt-outcome';
import { recipients, senderAddress } from '../domain/email-message';
import type { Delivery, DeliveryDocument, Destination } from '../domain/records';
import { RenderError, type RenderPool } from '../render/render-pool';
import type { EmailSender } from '../sender/email-sender';
import type { DeliveryStore, NewAttempt } from '../store';
import { DocumentRefused, documentOf } from './delivery-document';
import { unleased, type LeaseHold } from './lease-hold';

export interface EmailAttemptDeps {
  store: DeliveryStore;
  render: RenderPool;
  email: EmailSender;
  bus: Bus;
  commandTimeoutMs: number;
  /** DELIVERY_MAIL_FROM */
  mailFrom: string;
  now: () => number;
}

/** How long an address refused for good stays on the bounce list. */
export const bounceListDays = 30;

/** The value of the submitting device's custom attribute `name` (to_address_device_attribute), or null. */
async function deviceAttribute(deps: EmailAttemptDeps, delivery: Delivery, deviceIdentifier: string | undefined, name: string): Promise<string | null> {
  if (!deviceIdentifier) return null;
  const device = await nullIfNotFound( // null: the device deleted since
    deps.bus.request<ResolvedDevice>(
      createEnvelope(directoryCommands.resolveDevice, { ref: deviceIdentifier }, { orgId: delivery.orgId, requestId: `delivery-${delivery.id}` }),
      { timeoutMs: deps.commandTimeoutMs },
    ),
  );
  return device?.customAttributes?.[name] ?? null;
}

/** A failed or rejected attempt that sent nothing, with why. */
function unsent(attemptedAt: string, started: number, kind: AttemptResult['kind'], why: string, responseBody: string | null = null) {
  return {
    result: { kind } as AttemptResult,
    attempt: { attemptedAt, statusCode: null, durationMs: Math.round(performance.now() - started), responseBody, error: kind === 'delivered' ? null : why.slice(0, 1024) },
  };
}

/**
 * One attempt of an email delivery: render (once, the lease held meanwhile), then send if
 * the claim is still this attempt's; the SMTP reply is the attempt's status.
 */
export async function attemptEmail(
  deps: EmailAttemptDeps,
  delivery: Delivery,
  destination: Destination,
  attemptedAt: string,
  lease: LeaseHold = unleased,
): Promise<{ result: AttemptResult; attempt: NewAttempt }> {
  const started = performance.now();
  const parameters = destination.transport.parameters as EmailTransportParameters;
  let document: DeliveryDocument;
  let deviceTo: string | null = null;
  try {
    document = await lease.whileWorking(() => documentOf(deps, delivery, destination));
    if (parameters.to_address_device_attribute) {
      deviceTo = await deviceAttribute(deps, delivery, document.message.device, parameters.to_address_device_attribute);
    }
  } catch (error) {
    if (error instanceof RenderError || error instanceof DocumentRefused) return unsent(attemptedAt, started, 'rejected', `the document could not be made: ${error.message}`);
    return unsent(attemptedAt, started, 'failed', `the document could not be made now: ${(error as Error).message}`);
  }
  let to = recipients(parameters, document.message.answeredTo ?? null, deviceTo);
  // The bounce list: addresses refused for good lately are left out, unless skip_bounce_list_check.
  let bounced: string[] = [];
  if (!parameters.skip_bounce_list_check && to.length > 0) {
    try {
      bounced = await deps.store.bounces.bouncedAmong(delivery.orgId, to, new Date(deps.now() - bounceListDays * 24 * 60 * 60 * 1000).toISOString());
    } catch (error) {
      return unsent(attemptedAt, started, 'failed', `the bounce list could not be read now: ${(error as Error).message}`);
    }
    to = to.filter((address) => !bounced.includes(address));
    if (to.length === 0) return unsent(attemptedAt, started, 'rejected', `every recipient is on the bounce list (refused for good within ${bounceListDays} days): ${bounced.join(', ')}; skip_bounce_list_check sends anyway`);
  }
  if (to.length === 0) {
    // allow_no_email: a submission that names nobody is no failure; nothing is sent.
    if (parameters.allow_no_email) return unsent(attemptedAt, started, 'delivered', '', 'no recipient: nothing sent (allow_no_email)');
    return unsent(attemptedAt, started, 'rejected', 'no recipient: to_addresses is empty and neither to_address_form_field nor to_address_device_attribute gave an address');
  }
  // Fenced: a lease lost meanwhile (another worker may hold the delivery now) sends nothing.
  if (!(await lease.stillMine())) return unsent(attemptedAt, started, 'failed', 'the lease ran out before sending: another worker has the delivery; nothing sent');
  const images = (document.message.images ?? []).map((image) => ({ fileName: image.fileName, contentType: image.contentType, bytes: Buffer.from(image.base64, 'base64'), cid: image.cid }));
  const answer = await deps.email.send(parameters, {
    from: { name: parameters.from_name ?? null, address: senderAddress(parameters, deps.mailFrom) },
    to,
    subject: document.message.subject,
    text: document.message.text,
    html: document.message.html,
    attachment: document.message.attach ? { fileName: document.fileName, contentType: document.contentType, bytes: document.bytes } : null,
    images,
    messageId: delivery.webhookId,
  });
  if (answer.refused && answer.refused.length > 0) {
    await deps.store.bounces.recordBounces(delivery.orgId, answer.refused, answer.responseBody ?? answer.error ?? 'refused', new Date(deps.now()).toISOString()).catch(() => undefined);
  }
  const skipped = bounced.length > 0 ? ` (left out, on the bounce list: ${bounced.join(', ')})` : '';
  return {
    result: smtpResult(answer.statusCode, answer.error),
    attempt: {
      attemptedAt,
      statusCode: answer.statusCode,
      durationMs: Math.round(performance.now() - started),
      responseBody: answer.responseBody === null ? null : `${answer.responseBody}${skipped}`.slice(0, 1024),
      error: answer.error,
    },
  };
}
