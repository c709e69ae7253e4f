import { handlersByName, type EventHandler } from '@formcast/bus';
import { directoryEvents, pushCommands as commands } from '@formcast/contracts';
import { idempotent } from '@formcast/idempotency';
import type { PushDeps } from './handlers/deps';
import { createDispatches } from './handlers/create-dispatches';
import { createOneshot } from './handlers/create-oneshot';
import { deviceGetOneshot } from './handlers/device-get-oneshot';
import { deviceListOneshots } from './handlers/device-list-oneshots';
import { deviceSubmitOneshot } from './handlers/device-submit-oneshot';
import { getDispatch } from './handlers/get-dispatch';
import { getSubmission } from './handlers/get-submission';
import { getSubmissionImage } from './handlers/get-submission-image';
import { listDeviceDispatches } from './handlers/list-device-dispatches';
import { listOrganizationDispatches } from './handlers/list-organization-dispatches';
import { revokeDispatch } from './handlers/revoke-dispatch';
import { deviceChanged, formChanged } from './handlers/directory-changed';
import { deviceDeleted } from './handlers/device-deleted';
import { formDeleted } from './handlers/form-deleted';
import { findOutstandingOneshot } from './handlers/find-outstanding-oneshot';
import { listDeviceOneshots } from './handlers/list-device-oneshots';
import { listFormSubmissions } from './handlers/list-form-submissions';
import { listOrganizationOneshots } from './handlers/list-organization-oneshots';
import { revokeAllOneshots } from './handlers/revoke-all-oneshots';
import { revokeOneshot } from './handlers/revoke-oneshot';
import { saveSubmissionImage } from './handlers/save-submission-image';
import { downloadSubmissionImage, getSubmissionImageMd5 } from './handlers/submission-image-queries';
import { submissionMetrics } from './handlers/submission-metrics';
import { submitForm } from './handlers/submit-form';
import { updateOneshot } from './handlers/update-oneshot';

/**
 * The creates answer once per Idempotency-Key, from the keys of the push store: a dispatch
 * records its key with the oneshot, in one transaction (see createOneshot); a bulk request's
 * key, for the whole request, is claimed before and completed after (`idempotent`), and a
 * claim left by a process that died runs again under the first command's id, whose items the
 * store's applied commands answer.
 */
export const commandHandlers = handlersByName<typeof commands, PushDeps>(commands, {
  createOneshot,
  updateOneshot,
  listDeviceOneshots,
  findOutstandingOneshot,
  listOrganizationOneshots,
  revokeOneshot,
  revokeAllOneshots,
  deviceListOneshots,
  deviceGetOneshot,
  deviceSubmitOneshot,
  submitForm,
  listFormSubmissions,
  createDispatches: (deps) => idempotent(deps.store.keys, createDispatches(deps)),
  listDeviceDispatches,
  listOrganizationDispatches,
  getDispatch,
  revokeDispatch,
  getSubmission,
  saveSubmissionImage,
  getSubmissionImageMd5,
  downloadSubmissionImage,
  submissionMetrics,
  getSubmissionImage,
});

/** The directory's changes that reach the push service: its cache of devices and forms, and the oneshots of a deleted device or form. */
export const eventHandlers: Record<string, (deps: PushDeps) => EventHandler> = {
  [directoryEvents.deviceChanged]: deviceChanged,
  [directoryEvents.formChanged]: formChanged,
  [directoryEvents.deviceDeleted]: deviceDeleted,
  [directoryEvents.formDeleted]: formDeleted,
};
