import { z } from 'zod';
import { pushCommands } from './push';

/**
 * Submission images (v3/submission_image.md, birt_service.md), served by the push service
 * beside the submissions they belong to. A device's submission names its images by
 * identifier in its answers; the device uploads each image's bytes apart, then may ask for
 * the image's MD5 to check what arrived. The bytes travel as the command's attachment (and
 * the download's reply's), never as Base64 in JSON.
 */
export const submissionImageCommands = {
  /**
   * Delivery's question for a document (docs/architecture/delivery.md, "Images"): one image a
   * submission names, by the submission and the identifier. Reply: `{ contentType }` with the
   * bytes as the reply's attachment; AppError('not_found') when the submission's device has
   * no image of that identifier (not uploaded yet).
   */
  getSubmissionImage: pushCommands.getSubmissionImage,
  /** `POST /api/v3/devices/<device>/submission_images.json?image_identifier=…&submission_identifer=…`: bytes as the attachment. */
  saveImage: pushCommands.saveSubmissionImage,
  /** `GET /api/v3/devices/<device>/submission_images/<image>/get_md5`. */
  getImageMd5: pushCommands.getSubmissionImageMd5,
  /** `GET /api/v3/download_submission_image?uuid=…` (birt_service.md): the bytes as the reply's attachment. */
  downloadImage: pushCommands.downloadSubmissionImage,
} as const;

/** The largest image accepted (SUBMISSION_IMAGE_MAX_BYTES's default): what a pushed image may be too. */
export const submissionImageDefaultMaxBytes = 10 * 1024 * 1024;

/** The image types a device uploads (its photos, sketches and signatures): sniffed from the bytes, never taken from a header. */
export const submissionImageTypes = ['image/jpeg', 'image/png'] as const;
export type SubmissionImageType = (typeof submissionImageTypes)[number];

const deviceRef = z.string().min(1).max(255);
/** An image or submission identifier as a device makes them (a uuid, `1234`, `photo_1.jpg`): printable, no slash. */
export const imageIdentifier = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .regex(/^[^\s/\\\u0000-\u001f\u007f]+$/, 'must be printable characters without spaces or slashes');
/** An MD5 digest as 32 hexadecimal digits (lower case once parsed). */
export const md5Hex = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, 'must be an MD5 digest: 32 hexadecimal digits')
  .transform((value) => value.toLowerCase());

export const saveSubmissionImagePayload = z.object({
  deviceRef,
  image_identifier: imageIdentifier,
  /** The docs' spelling is `submission_identifer`; the gateway takes both and sends this one. */
  submission_identifier: imageIdentifier,
  /** The MD5 the client says the bytes have (`Content-MD5`, or `md5`): a mismatch is 400 and nothing is saved. */
  md5: md5Hex.optional(),
});
export type SaveSubmissionImageInput = z.infer<typeof saveSubmissionImagePayload>;

export const submissionImageMd5Payload = z.object({ deviceRef, image_identifier: imageIdentifier });

/** birt_service.md's `uuid` ("id of the PDF Image"): the uuid an upload was given. */
export const downloadSubmissionImagePayload = z.object({ uuid: z.uuid({ error: 'must be the uuid of a submission image' }) });

/** A stored submission image, as push answers its save. */
export interface SubmissionImageSavedView {
  uuid: string;
  image_identifier: string;
  submission_identifier: string;
  device_identifier: string;
  content_type: SubmissionImageType;
  size: number;
  md5: string;
  created_at: string;
  /** The submission it completes, when that submission is stored (null: not yet). */
  submission_id: number | null;
}

/** `get_md5`'s answer. */
export interface SubmissionImageMd5View {
  md5: string;
}

export const getSubmissionImagePayload = z.object({
  submissionId: z.number().int().positive(),
  /** The answer's value: the identifier the image was uploaded under. */
  imageIdentifier: z.string().min(1).max(255),
});

export type GetSubmissionImagePayload = z.infer<typeof getSubmissionImagePayload>;

/** `getSubmissionImage`'s value; the bytes are the reply's attachment. */
export interface SubmissionImageView {
  contentType: string;
}

/** The download's value; the bytes are the reply's attachment. */
export interface SubmissionImageFileView {
  image_identifier: string;
  content_type: SubmissionImageType;
}
