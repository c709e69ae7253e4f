import { z } from 'zod';

/**
 * Events about submissions, published by the push service through its outbox once a
 * submission is stored (a crash between the write and the publish loses nothing). Kept apart
 * from `pushEvents`: every consumer of those reads a oneshot payload.
 */
export const submissionEvents = {
  submissionReceived: 'push.submission.received',
} as const;

const id = z.number().int().positive();
const isoTime = z.iso.datetime({ offset: true });

/**
 * A stored submission, whole: what any consumer needs to deliver, chain or index it
 * without asking anyone. At-least-once, like every event: consumers drop duplicates by
 * `submissionId` (one submission is one id, however often its event comes).
 */
export const submissionReceivedPayload = z.object({
  submissionId: id,
  orgId: id,
  deviceId: id,
  deviceIdentifier: z.string().min(1),
  /** The device's owner as the directory shows it (the `username` of the real product's metadata). */
  deviceOwner: z.string(),
  formId: id,
  formName: z.string(),
  /** The template's namespace (not a dispatched copy's `<namespace>?<uuid>`). */
  formNamespace: z.string().min(1),
  /** The template's version when it was submitted, as the API shows it: "1.00", "1.01"… */
  formVersion: z.string().min(1),
  /** The oneshot this submission completed; null: a form submitted without one. */
  oneshotId: id.nullable(),
  /** The device's own id for the submission (`submissionIdentifier`), when it sent one. */
  clientSubmissionId: z.string().min(1).nullable(),
  /** When the device says the user submitted it. */
  submittedAt: isoTime,
  /** When the server stored it. */
  receivedAt: isoTime,
  /** Question identifier -> value as stored: text, an object for a subform, an array of objects for a group. */
  answers: z.record(z.string(), z.unknown()),
  /** Only these destinations of the form deliver it (the v3 API's `destination_ids`); absent: every active one. */
  destinationIds: z.array(id).optional(),
  /**
   * The images its answers name by identifier (uploaded apart: v3/submission_image.md), each
   * stored: a submission naming images is announced only once all of them are. Their bytes are
   * push's `push.submission_image.download` by uuid. Absent: it names none.
   */
  images: z
    .array(
      z.object({
        image_identifier: z.string().min(1),
        uuid: z.uuid(),
        content_type: z.string().min(1),
        size: z.number().int().min(0),
        md5: z.string().length(32),
      }),
    )
    .optional(),
});

export type SubmissionReceivedPayload = z.infer<typeof submissionReceivedPayload>;
