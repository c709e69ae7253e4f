import type { CommandHandler } from '@formcast/bus';
import { submitFormPayload, type FormSubmissionView } from '@formcast/contracts';
import { allInOrder, parsePayload } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { submissionForm } from '../directory-cache/submission-form';
import { checkAnswers, instanceAnswers } from '../domain/payload-rules';
import { toFormSubmissionView } from '../domain/views';
import type { PushDeps } from './deps';
import { saveSubmission } from './save-submission';

/**
 * A device submits a form of its groups, or a oneshot pushed to it, which the submission
 * completes: `POST /device/forms/<form_id>/submissions`, and the v3 API on its behalf.
 */
export const submitForm =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<FormSubmissionView> => {
    const input = parsePayload(submitFormPayload, command.payload);
    const [device, form] = await allInOrder([
      approvedDevice(deps.directory, command, input.deviceRef),
      submissionForm(deps.directory, command, input.formId === undefined ? { namespace: input.form_namespace ?? '' } : { formId: input.formId }),
    ]);
    const submission = await saveSubmission(deps, command, {
      device,
      form,
      oneshotId: input.oneshot_id,
      clientSubmissionId: input.submission_identifier,
      answers: checkAnswers(input.fromXml ? instanceAnswers(input.answers, form.questions) : input.answers, form.questions, { lenientRepeats: input.fromXml }),
      submittedAt: input.submitted_at,
      destinationIds: input.destination_ids,
    });
    return toFormSubmissionView(submission);
  };
