import { randomUUID } from 'node:crypto';
import type { CommandHandler } from '@formcast/bus';
import { saveSubmissionImagePayload, type SubmissionImageSavedView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { checkedMd5, sniffImageType, toSubmissionImageSavedView } from '../domain/submission-image-rules';
import { nowOf, type PushDeps } from './deps';

/**
 * A device's submission image (v3/submission_image.md), its bytes the command's attachment:
 * checked (an image, the MD5 the client gave) before anything is saved, then saved under the
 * device and image identifier; the same identifier again replaces the bytes. The device's
 * submissions waiting for it are released in the same write (see SubmissionImageStore.save). Another
 * organization's device, or one not approved, is 404.
 */
export const saveSubmissionImage =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionImageSavedView> => {
    const input = parsePayload(saveSubmissionImagePayload, command.payload);
    const orgId = requireOrgId(command);
    const device = await approvedDevice(deps.directory, command, input.deviceRef);
    const bytes = command.attachment;
    if (!bytes || bytes.length === 0) throw new AppError('invalid', "The body must be the image's bytes (it was empty)");
    const contentType = sniffImageType(bytes);
    const md5 = checkedMd5(bytes, input.md5);
    const image = await deps.store.images.save(
      {
        uuid: randomUUID(),
        orgId,
        deviceId: device.id,
        deviceIdentifier: device.identifier,
        imageIdentifier: input.image_identifier,
        submissionIdentifier: input.submission_identifier,
        contentType,
        size: bytes.length,
        md5,
        createdAt: nowOf(deps),
      },
      bytes,
    );
    // The save may have completed submissions that waited for this image: their events go out now.
    deps.eventsWritten();
    const submission = await deps.store.findSubmission(orgId, { deviceId: device.id, clientSubmissionId: image.submissionIdentifier });
    return toSubmissionImageSavedView(image, submission?.id ?? null);
  };
