import { createHash } from 'node:crypto';

/** The namespace of this service's name-based ids (a random UUID, fixed forever). */
const deliveryNamespace = Buffer.from('5c2f0f53-58c6-4e4f-9a36-1f0bd1c54d77'.replace(/-/g, ''), 'hex');

/** A UUID version 5 (RFC 9562: SHA-1 of namespace and name): the same name always gives the same id. */
export function nameBasedUuid(name: string, namespace: Buffer = deliveryNamespace): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The envelope id of the push command a dispatch delivery sends: one per destination and
 * submission, whichever attempt, replica or duplicate event sends it, so push (which
 * applies a command id once) creates one oneshot however often it comes.
 */
export function dispatchCommandId(destinationId: number, submissionId: number): string {
  return nameBasedUuid(`dispatch:${destinationId}:${submissionId}`);
}
