import { createHash } from 'node:crypto';
import type { SubmissionImageType, SubmissionImageSavedView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { SubmissionImage } from '../store/submission-image-store';

/** The image's type from its first bytes (JPEG or PNG); anything else is 415, whatever its Content-Type said. */
export function sniffImageType(bytes: Buffer): SubmissionImageType {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  throw new AppError('unsupported_media_type', 'The body must be the image itself: a JPEG or PNG file');
}

/**
 * The MD5 of the bytes, as get_md5 answers it (32 lower-case hexadecimal digits). When the
 * client said which MD5 it sent (`expected`), a difference is 400: the bytes changed on the way.
 */
export function checkedMd5(bytes: Buffer, expected: string | undefined): string {
  const md5 = createHash('md5').update(bytes).digest('hex');
  if (expected !== undefined && expected !== md5) {
    throw new AppError('invalid', `Content-MD5: the body's MD5 is ${md5}, not ${expected}; the image was not saved, send it again`);
  }
  return md5;
}

export function toSubmissionImageSavedView(image: SubmissionImage, submissionId: number | null): SubmissionImageSavedView {
  return {
    uuid: image.uuid,
    image_identifier: image.imageIdentifier,
    submission_identifier: image.submissionIdentifier,
    device_identifier: image.deviceIdentifier,
    content_type: image.contentType,
    size: image.size,
    md5: image.md5,
    created_at: image.createdAt,
    submission_id: submissionId,
  };
}
