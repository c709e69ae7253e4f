import type { CommandHandler } from '@formcast/bus';
import { getSubmissionPayload, type Envelope, type SubmissionInstanceView } from '@formcast/contracts';
import { AppError, nullIfNotFound, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import type { Submission } from '../domain/records';
import { toSubmissionInstanceView } from '../domain/submission-instance';
import type { PushDeps } from './deps';

/** The questions of the submission's form, for their order; null when the form was deleted since. */
async function formQuestions(directory: DirectoryLookup, command: Envelope, submission: Submission): Promise<unknown[] | null> {
  return (await nullIfNotFound(directory.formById(submission.orgId, submission.formId, command.requestId)))?.questions ?? null;
}

/** GET /api/v3/submissions/<id>: one of the organization's submissions, as its XML instance shows it; another organization's is 404. */
export const getSubmission =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionInstanceView> => {
    const { submissionId } = parsePayload(getSubmissionPayload, command.payload);
    const submission = await store.getSubmission(requireOrgId(command), submissionId);
    if (!submission) throw new AppError('not_found', `Submission ${submissionId} does not exist`);
    return toSubmissionInstanceView(submission, await formQuestions(directory, command, submission));
  };
