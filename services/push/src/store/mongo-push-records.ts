import type { DispatchSummary, Oneshot, OneshotSummary, Submission } from '../domain/records';
import type { OneshotDoc, SubmissionDoc } from './mongo-models';
import type { OneshotChanges } from './oneshot-changes';

/** The push service's records as MongoDB documents (as `.lean()` returns them), and back. */

const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);
/** Documents kept from before releases have no `releasedAt`: they were released when created. */
const releasedAtOf = (releasedAt: Date | null | undefined, createdAt: Date) => (releasedAt === undefined ? createdAt.toISOString() : isoOrNull(releasedAt));

/** Documents kept from before the dispatch fields lack them. */
const legacyDefaults = (doc: Partial<Pick<Oneshot, 'formVersion' | 'location' | 'address' | 'geofenceRadius'>>) => ({
  formVersion: doc.formVersion ?? '',
  location: doc.location ?? null,
  address: doc.address ?? null,
  geofenceRadius: doc.geofenceRadius ?? null,
});

/** Filters on `releasedAt`: only a null value is "not yet" (a missing field is a document kept from before). */
export const unreleased = { releasedAt: { $type: 'null' } } as const;
export const released = { releasedAt: { $not: { $type: 'null' } } } as const;
const dateOrNull = (iso: string | null) => (iso === null ? null : new Date(iso));

/** A dispatch as the v3 listings read it (no payload). */
export const dispatchFromDoc = ({ _id, createdAt, updatedAt, scheduledAt, releasedAt, ...fields }: Omit<OneshotDoc, 'payload'>): DispatchSummary => ({
  ...fields,
  ...legacyDefaults(fields),
  id: _id,
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
  scheduledAt: isoOrNull(scheduledAt),
  releasedAt: releasedAtOf(releasedAt, createdAt),
});

export const oneshotFromDoc = (doc: OneshotDoc): Oneshot => ({ ...dispatchFromDoc(doc), payload: doc.payload });

export const oneshotToDoc = ({ id, createdAt, updatedAt, scheduledAt, releasedAt, ...fields }: Oneshot): OneshotDoc => ({
  ...fields,
  _id: id,
  createdAt: new Date(createdAt),
  updatedAt: new Date(updatedAt),
  scheduledAt: dateOrNull(scheduledAt),
  releasedAt: dateOrNull(releasedAt),
});

/** A transition's changes as `$set`: its times as dates. */
export const changesToSet = ({ scheduledAt, releasedAt, updatedAt, ...fields }: OneshotChanges) => ({
  ...fields,
  updatedAt: new Date(updatedAt),
  scheduledAt: dateOrNull(scheduledAt),
  releasedAt: dateOrNull(releasedAt),
});

/** The fields of the organization listing: the payload is not read. */
export const summaryProjection = { _id: 1, orgId: 1, deviceId: 1, name: 1, description: 1, namespace: 1 } as const;
export type OneshotSummaryDoc = Pick<OneshotDoc, '_id' | Exclude<keyof OneshotSummary, 'id'>>;

export const summaryFromDoc = ({ _id, ...fields }: OneshotSummaryDoc): OneshotSummary => ({ ...fields, id: _id });

export const submissionFromDoc = ({ _id, submittedAt, receivedAt, ...fields }: SubmissionDoc): Submission => ({
  ...fields,
  id: _id,
  submittedAt: submittedAt.toISOString(),
  receivedAt: receivedAt.toISOString(),
});

export const submissionToDoc = ({ id, submittedAt, receivedAt, ...fields }: Submission): SubmissionDoc => ({
  ...fields,
  _id: id,
  submittedAt: new Date(submittedAt),
  receivedAt: new Date(receivedAt),
});
