import { z } from 'zod';

/**
 * A submission's images uploaded apart from it (submission_image.md: the device posts each
 * image's bytes under the identifier its answer names). Served by the push service, which
 * keeps them; asked by delivery to draw them into documents.
 *
 * Reply: `{ contentType }` with the image's bytes as the reply's attachment;
 * AppError('not_found') when the submission has no image of that identifier (not uploaded
 * yet). A bus without a server for it answers AppError('unavailable'): delivery then draws a
 * placeholder.
 */
export const submissionImageCommands = {
  getSubmissionImage: 'push.submission.image.get',
} as const;

export const getSubmissionImagePayload = z.object({
  submissionId: z.number().int().positive(),
  /** The answer's value: the identifier the image was uploaded under. */
  imageIdentifier: z.string().min(1).max(255),
});

export type GetSubmissionImagePayload = z.infer<typeof getSubmissionImagePayload>;

export interface SubmissionImageView {
  contentType: string;
}
