import type { CommandHandler } from '@formcast/bus';
import { deviceSideSubmitPayload, pushEvents, type SubmissionView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { oneshotEvent } from '../domain/oneshot-events';
import type { PushDeps } from './deps';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** POST /device/oneshots/<id>/submission: the user completed it; outstanding → completed. */
export const deviceSubmitOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionView> => {
    const orgId = requireOrgId(command);
    const { deviceId, oneshotId, answers } = parsePayload(deviceSideSubmitPayload, command.payload);
    if (!isPlainObject(answers)) throw new AppError('invalid', 'answers: must be an object of question names to answers');
    const device = await deps.directory.device(orgId, String(deviceId), command.requestId);
    const submission = await deps.store.complete(
      orgId,
      deviceId,
      oneshotId,
      answers,
      oneshotEvent(pushEvents.oneshotCompleted, device.pushToken, command.requestId),
      command.id,
    );
    deps.eventsWritten();
    return { oneshot_id: submission.oneshotId, submitted_at: submission.submittedAt };
  };
