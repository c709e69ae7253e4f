import { envelopeSchema, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/**
 * An envelope as it travels between processes: its JSON, and its attachment apart, never
 * encoded (see Envelope.attachment). In one process messages travel frozen instead
 * (in-process/frozen-message.ts), delivered as this JSON would deliver them.
 */
export interface EncodedEnvelope {
  json: string;
  attachment?: Buffer;
}

/** An `undefined` payload travels as `null` (JSON has no undefined). */
export function encodeEnvelope(envelope: Envelope): EncodedEnvelope {
  const { attachment, ...rest } = validEnvelope(envelope);
  let json: string;
  try {
    json = JSON.stringify(rest);
  } catch {
    throw new AppError('internal', `The payload of ${envelope.type} is not JSON-serializable`);
  }
  return attachment ? { json, attachment } : { json };
}

/**
 * The envelope a sender hands over, as every adapter accepts it: its own fields only (a new
 * object; the payload is the sender's), an `undefined` payload as `null`; an AppError
 * `internal` for anything that is not an envelope.
 */
export function validEnvelope(envelope: Envelope): Envelope {
  const candidate = { ...envelope, payload: envelope.payload ?? null };
  const valid = wellFormedEnvelope(candidate);
  if (valid) return valid;
  const parsed = envelopeSchema.safeParse(candidate);
  if (parsed.success) return parsed.data as Envelope;
  const issue = parsed.error.issues[0];
  throw new AppError('internal', `Not a valid envelope: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
}

/** The envelope in a received message, or null when the message is not one. */
export function decodeEnvelope(json: Buffer | string, attachment?: Buffer): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(json.toString());
  } catch {
    return null;
  }
  let envelope = wellFormedEnvelope(value);
  if (!envelope) {
    const parsed = envelopeSchema.safeParse(value);
    if (!parsed.success) return null;
    envelope = parsed.data as Envelope;
  }
  if (attachment) envelope.attachment = attachment;
  return envelope;
}

/**
 * The envelope `envelopeSchema` would make of `value`, for the shapes it certainly accepts
 * (the ones every adapter sends), without zod's cost on every message; undefined for
 * anything else, which the callers then leave to `envelopeSchema` itself, so what is
 * accepted, what is refused and with which message stay exactly zod's. Like zod, it
 * keeps only the envelope's own fields, in the schema's order.
 */
export function wellFormedEnvelope(value: unknown): Envelope | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, type, occurredAt, orgId, requestId, payload, attachment, idempotency, traceContext } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0) return undefined;
  if (typeof type !== 'string' || type.length === 0) return undefined;
  if (typeof occurredAt !== 'string' || typeof requestId !== 'string') return undefined;
  if (orgId !== null && !(typeof orgId === 'number' && Number.isSafeInteger(orgId))) return undefined;
  // An absent payload is refused by zod, one present but undefined accepted: left to zod.
  if (payload === undefined) return undefined;
  const envelope: Envelope = { id, type, occurredAt, orgId, requestId, payload };
  if (attachment === undefined) {
    // zod keeps a key given as undefined.
    if ('attachment' in value) envelope.attachment = undefined;
  } else if (Buffer.isBuffer(attachment)) {
    envelope.attachment = attachment;
  } else {
    return undefined;
  }
  if (idempotency === undefined) {
    if ('idempotency' in value) envelope.idempotency = undefined;
  } else {
    const wellFormed = wellFormedIdempotency(idempotency);
    if (!wellFormed) return undefined;
    envelope.idempotency = wellFormed;
  }
  if (traceContext === undefined) {
    if ('traceContext' in value) envelope.traceContext = undefined;
    return envelope;
  }
  const carried = wellFormedTraceContext(traceContext);
  if (!carried) return undefined;
  envelope.traceContext = carried;
  return envelope;
}

/** `{key, fingerprint}`, both non-empty strings, as zod keeps it (its own two fields only). */
function wellFormedIdempotency(value: unknown): Envelope['idempotency'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { key, fingerprint } = value as Record<string, unknown>;
  if (typeof key !== 'string' || key.length === 0 || typeof fingerprint !== 'string' || fingerprint.length === 0) return undefined;
  return { key, fingerprint };
}

/** `{traceparent, tracestate?}`: a non-empty traceparent, a tracestate string when present, as zod keeps it. */
function wellFormedTraceContext(value: unknown): Envelope['traceContext'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== 'string' || traceparent.length === 0) return undefined;
  if (tracestate === undefined) return 'tracestate' in value ? { traceparent, tracestate: undefined } : { traceparent };
  return typeof tracestate === 'string' ? { traceparent, tracestate } : undefined;
}
