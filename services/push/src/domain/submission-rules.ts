import type { ResolvedDevice, ResolvedForm } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { completedOneshot } from './oneshot-lifecycle';
import type { NewSubmission, Oneshot, Submission } from './records';

/*
 * Submissions: a device submits any form of its groups, or a oneshot pushed to it, which the
 * submission then completes. The decision takes what the store loaded inside its write and
 * the time of the change, and returns what to save, or throws an AppError and nothing is saved.
 */

/** What a submission asks for, once its device and form are known and its answers checked. */
export interface SubmissionRequest {
  device: Pick<ResolvedDevice, 'id' | 'orgId' | 'identifier' | 'owner' | 'groupIds'>;
  form: Pick<ResolvedForm, 'id' | 'namespace' | 'name' | 'version' | 'groupId'>;
  /** The outstanding oneshot it completes; null: none. */
  oneshotId: number | null;
  clientSubmissionId: string | null;
  answers: Record<string, unknown>;
  /** When the user submitted it, as the device says (ISO 8601 with its offset); absent: when received. */
  submittedAt?: string | undefined;
}

/** What the store loads for a submission, inside its write. */
export interface SubmissionLoaded {
  /** The oneshot the request names (null: none named, unknown, or of another organization). */
  oneshot: Oneshot | null;
  /** This device's submission with the request's client id, if it has one. */
  earlier: Submission | null;
}

/**
 * What to save: nothing (a retry: the earlier submission is the answer), or the new
 * submission and the oneshot it completes.
 */
export type SubmissionOutcome = { repeated: Submission } | { submission: NewSubmission; completed: Oneshot | null };

/**
 * A device may submit the forms of its groups. A oneshot pushed to it can be submitted
 * whatever the groups: pushing chose the device.
 */
export function requireFormOfDeviceGroups(device: SubmissionRequest['device'], form: SubmissionRequest['form']): void {
  if (!device.groupIds.includes(form.groupId)) {
    throw new AppError('forbidden', `Device ${device.identifier} may not submit form ${form.id}: the form is in none of its groups`);
  }
}

/** The oneshot a submission completes: this device's, outstanding, and a copy of the submitted form. */
function completedBy(oneshot: Oneshot | null, request: SubmissionRequest, oneshotId: number, now: string): Oneshot {
  const completed = completedOneshot(oneshot, { oneshotId, deviceId: request.device.id }, now);
  if (completed.formId !== request.form.id) {
    throw new AppError('invalid', `oneshot_id: oneshot ${oneshotId} is a copy of form ${completed.formId}, not of form ${request.form.id}`);
  }
  return completed;
}

/**
 * A submission received at `now`. The same client id again (same device) is the same
 * submission: the earlier one answers, whatever this one says, and nothing is saved.
 */
export function acceptedSubmission(loaded: SubmissionLoaded, request: SubmissionRequest, now: string): SubmissionOutcome {
  if (loaded.earlier) return { repeated: loaded.earlier };
  const { device, form, oneshotId } = request;
  const completed = oneshotId === null ? null : completedBy(loaded.oneshot, request, oneshotId, now);
  if (!completed) requireFormOfDeviceGroups(device, form);
  return {
    submission: {
      orgId: device.orgId,
      deviceId: device.id,
      deviceIdentifier: device.identifier,
      deviceOwner: device.owner,
      formId: form.id,
      formNamespace: form.namespace,
      formName: form.name,
      formVersion: form.version,
      oneshotId,
      clientSubmissionId: request.clientSubmissionId,
      answers: request.answers,
      // One format for every stored time, so times compare as text too.
      submittedAt: request.submittedAt === undefined ? now : new Date(request.submittedAt).toISOString(),
      receivedAt: now,
    },
    completed,
  };
}
