import type { Delivery, DeliveryWithAttempts, Destination, DestinationTransportSettings, FormatParameters, SigningSecrets } from '../domain/records';
import { openSigningSecrets, openTransport, type SecretCipher } from '../secrets';
import type { DeliveryDoc, DestinationDoc } from './mongo-models';

/* The delivery store's records from their MongoDB documents, and back (MongoDeliveryStore's parts). */

/** A destination's secrets as stored (sealed), from its document. */
export function storedSecrets(doc: Pick<DestinationDoc, 'secret' | 'retiredSecrets'>): SigningSecrets {
  return { current: doc.secret, retired: (doc.retiredSecrets ?? []).map((retired) => ({ secret: retired.secret, expiresAt: retired.expiresAt.toISOString() })) };
}

/** The document's fields of sealed secrets. */
export function secretFields(sealed: SigningSecrets): Pick<DestinationDoc, 'secret' | 'retiredSecrets'> {
  return { secret: sealed.current, retiredSecrets: sealed.retired.map((retired) => ({ secret: retired.secret, expiresAt: new Date(retired.expiresAt) })) };
}

/** A pending delivery of an inactive destination has no due time while it is held (as SQLite stores it). */
export function held(doc: DeliveryDoc, destination: Pick<DestinationDoc, 'active'>): DeliveryDoc {
  return !destination.active && doc.status === 'pending' ? { ...doc, nextAttemptAt: null } : doc;
}

export function destinationFromDoc(doc: DestinationDoc, cipher: SecretCipher): Destination {
  const { _id, transportType, transportParameters, secret, retiredSecrets, deactivatedAt, failingSince, createdAt, updatedAt, ...fields } = doc;
  const { commandId: _commandId, rotationCommandId: _rotationCommandId, formatParameters, formatUpdatedAt, transportUpdatedAt, ...kept } = fields;
  return {
    id: _id,
    ...kept,
    formatParameters: JSON.parse(formatParameters ?? '{}') as FormatParameters,
    formatUpdatedAt: (formatUpdatedAt ?? createdAt).toISOString(),
    transportUpdatedAt: (transportUpdatedAt ?? updatedAt).toISOString(),
    transport: openTransport(cipher, { type: transportType, parameters: JSON.parse(transportParameters) } as DestinationTransportSettings),
    secrets: openSigningSecrets(cipher, storedSecrets({ secret, retiredSecrets })),
    deactivatedAt: deactivatedAt?.toISOString() ?? null,
    failingSince: failingSince?.toISOString() ?? null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export function deliveryFromDoc(doc: DeliveryDoc): Delivery {
  const { _id, nextAttemptAt, claimedUntil: _claimedUntil, claimToken: _claimToken, attempts: _attempts, createdAt, updatedAt, ...fields } = doc;
  return { id: _id, ...fields, nextAttemptAt: nextAttemptAt?.getTime() ?? null, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

export function deliveryWithAttemptsFromDoc(doc: DeliveryDoc): DeliveryWithAttempts {
  return {
    ...deliveryFromDoc(doc),
    attempts: doc.attempts.map((attempt) => ({ deliveryId: doc._id, ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })),
  };
}
