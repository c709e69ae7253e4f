import type { Oneshot, Submission } from '../domain/records';
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

export const submissionFromDoc = (doc: SubmissionDoc): Submission => ({
  oneshotId: doc._id,
  orgId: doc.orgId,
  deviceId: doc.deviceId,
  answers: doc.answers,
  submittedAt: doc.submittedAt.toISOString(),
});
