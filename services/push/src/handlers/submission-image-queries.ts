import { withAttachment, type CommandHandler, type ValueWithAttachment } from '@formcast/bus';
import {
  downloadSubmissionImagePayload,
  submissionImageMd5Payload,
  type SubmissionImageFileView,
  type SubmissionImageMd5View,
} from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import type { PushDeps } from './deps';

/** get_md5: the MD5 of the device's image as stored; an image it never uploaded (or another organization's device) is 404. */
export const getSubmissionImageMd5 =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionImageMd5View> => {
    const input = parsePayload(submissionImageMd5Payload, command.payload);
    const device = await approvedDevice(deps.directory, command, input.deviceRef);
    const image = await deps.store.images.find(requireOrgId(command), device.id, input.image_identifier);
    if (!image) throw new AppError('not_found', `Device ${device.identifier} has no submission image ${input.image_identifier}`);
    return { md5: image.md5 };
  };

/** birt_service.md's download: the image's bytes as the reply's attachment; another organization's uuid is 404. */
export const downloadSubmissionImage =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<ValueWithAttachment<SubmissionImageFileView>> => {
    const { uuid } = parsePayload(downloadSubmissionImagePayload, command.payload);
    const found = await store.images.read(requireOrgId(command), uuid);
    if (!found) throw new AppError('not_found', `Submission image ${uuid} does not exist`);
    return withAttachment({ image_identifier: found.image.imageIdentifier, content_type: found.image.contentType }, found.bytes);
  };
