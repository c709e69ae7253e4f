import type { CommandHandler } from '@formcast/bus';
import { deviceSideSubmitPayload, type SubmissionView } from '@formcast/contracts';
import { allInOrder, parsePayload, requireOrgId } from '@formcast/platform';
import { oneshotTemplate } from '../directory-cache/submission-form';
import { ownOneshot } from '../domain/oneshot-lifecycle';
import { checkAnswers, checkAnswersShape } from '../domain/payload-rules';
import { toSubmissionView } from '../domain/views';
import type { PushDeps } from './deps';
import { saveSubmission } from './save-submission';

/** POST /device/oneshots/<id>/submission: the user completed it; outstanding → completed, its answers kept as a submission. */
export const deviceSubmitOneshot =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionView> => {
    const orgId = requireOrgId(command);
    const { deviceId, oneshotId, answers } = parsePayload(deviceSideSubmitPayload, command.payload);
    // The path before the body (the documented order of checks): another device's oneshot is
    // 404 whatever the answers. Read first for its template too, to check the answers against;
    // the write decides (a redelivered command finds its first answer there, even for a
    // oneshot it completed).
    const oneshot = ownOneshot(await deps.store.get(orgId, oneshotId), { oneshotId, deviceId });
    checkAnswersShape(answers);
    const [device, form] = await allInOrder([
      deps.directory.device(orgId, String(deviceId), command.requestId),
      oneshotTemplate(deps.directory, command, oneshot),
    ]);
    const submission = await saveSubmission(deps, command, {
      device,
      form,
      oneshotId,
      clientSubmissionId: null,
      answers: checkAnswers(answers, form.questions),
    });
    return toSubmissionView(submission);
  };
