import type { Oneshot, OneshotSummary, Submission } from '../domain/records';
import type { OneshotDoc, SubmissionDoc } from './mongo-models';

/** The push service's MongoDB documents (as `.lean()` returns them) as records. */

export const oneshotFromDoc = (doc: OneshotDoc): Oneshot => ({
  id: doc._id,
  orgId: doc.orgId,
  deviceId: doc.deviceId,
  deviceIdentifier: doc.deviceIdentifier,
  formId: doc.formId,
  templateNamespace: doc.templateNamespace,
  namespace: doc.namespace,
  name: doc.name,
  description: doc.description,
  payload: doc.payload,
  state: doc.state,
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});

/** The fields of the organization listing: the payload is not read. */
export const summaryProjection = { _id: 1, orgId: 1, deviceId: 1, name: 1, description: 1, namespace: 1 } as const;
export type OneshotSummaryDoc = Pick<OneshotDoc, '_id' | 'orgId' | 'deviceId' | 'name' | 'description' | 'namespace'>;

export const summaryFromDoc = (doc: OneshotSummaryDoc): OneshotSummary => ({
  id: doc._id,
  orgId: doc.orgId,
  deviceId: doc.deviceId,
  name: doc.name,
  description: doc.description,
  namespace: doc.namespace,
});

export const submissionFromDoc = (doc: SubmissionDoc): Submission => ({
  oneshotId: doc._id,
  orgId: doc.orgId,
  deviceId: doc.deviceId,
  answers: doc.answers,
  submittedAt: doc.submittedAt.toISOString(),
});
