import { withAttachment, type CommandHandler, type ValueWithAttachment } from '@formcast/bus';
import { getSubmissionImagePayload, type SubmissionImageView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { PushDeps } from './deps';

/**
 * Delivery's question for a document (`push.submission.image.get`): the image a submission
 * names by identifier, as its device uploaded it, bytes as the reply's attachment. Another
 * organization's submission, or an image its device has not uploaded, is not_found.
 */
export const getSubmissionImage =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<ValueWithAttachment<SubmissionImageView>> => {
    const orgId = requireOrgId(command);
    const { submissionId, imageIdentifier } = parsePayload(getSubmissionImagePayload, command.payload);
    const submission = await store.getSubmission(orgId, submissionId);
    if (!submission) throw new AppError('not_found', `Submission ${submissionId} does not exist`);
    const image = await store.images.find(orgId, submission.deviceId, imageIdentifier);
    const found = image && (await store.images.read(orgId, image.uuid));
    if (!found) throw new AppError('not_found', `Device ${submission.deviceIdentifier} has not uploaded image ${imageIdentifier}`);
    return withAttachment({ contentType: found.image.contentType }, found.bytes);
  };
