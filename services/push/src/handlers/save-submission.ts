import { pushEvents, type Envelope, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import { requireOrgId } from '@formcast/platform';
import { namedImages } from '../domain/image-answers';
import { oneshotEvent } from '../domain/oneshot-events';
import type { Submission } from '../domain/records';
import { submissionReceivedEvent } from '../domain/submission-events';
import { acceptedSubmission, type SubmissionRequest } from '../domain/submission-rules';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

/**
 * A submission whose device and form are known and whose answers are checked, decided and
 * saved in one write with its events; then the relay is woken. The same command again, or
 * the same client id again, answers with the submission saved first.
 */
export async function saveSubmission(
  { store, eventsWritten }: PushDeps,
  command: Envelope,
  request: SubmissionRequest & { device: ResolvedDevice; form: Pick<ResolvedForm, 'questions'>; destinationIds?: number[] | undefined },
): Promise<Submission> {
  const { device, oneshotId, clientSubmissionId } = request;
  const submission = await tracedStoreWrite('submit', (carryTrace) =>
    store.submit(
      { orgId: requireOrgId(command), deviceId: device.id, oneshotId, clientSubmissionId },
      (loaded) => acceptedSubmission(loaded, request, new Date().toISOString()),
      {
        completed: carryTrace(oneshotEvent(pushEvents.oneshotCompleted, device.pushToken, command.requestId)),
        received: carryTrace(submissionReceivedEvent(command.requestId, request.form.questions, request.destinationIds)),
        // Images its answers name by identifier: it waits for them (v3/submission_image.md).
        namedImages: namedImages(request.answers, request.form.questions),
      },
      command.id,
    ),
  );
  eventsWritten();
  return submission;
}
