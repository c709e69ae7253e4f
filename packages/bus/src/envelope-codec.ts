import { envelopeSchema, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';

/**
 * The wire form of an envelope: JSON. Both adapters send every message through it, so a
 * handler never shares objects with its caller and sees exactly what the other adapter
 * would deliver. An `undefined` payload travels as `null` (JSON has no undefined).
 */
export function encodeEnvelope(envelope: Envelope): string {
  const parsed = envelopeSchema.safeParse({ ...envelope, payload: envelope.payload ?? null });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('internal', `Not a valid envelope: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  try {
    return JSON.stringify(parsed.data);
  } catch {
    throw new AppError('internal', `The payload of ${envelope.type} is not JSON-serializable`);
  }
}

/** The envelope in a received message, or null when the message is not one. */
export function decodeEnvelope(content: Buffer | string): Envelope | null {
  let json: unknown;
  try {
    json = JSON.parse(content.toString());
  } catch {
    return null;
  }
  const parsed = envelopeSchema.safeParse(json);
  return parsed.success ? (parsed.data as Envelope) : null;
}
