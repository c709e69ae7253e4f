import type { SubmissionImageType } from '@formcast/contracts';

/** A submission image as stored: its bytes are kept apart (a BLOB in SQLite, GridFS in MongoDB). */
export interface SubmissionImage {
  /** Its own id, given at its first upload and kept when it is uploaded again (birt_service.md's `uuid`). */
  uuid: string;
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  /** The device's name for it, unique per device: the same identifier again replaces the bytes. */
  imageIdentifier: string;
  /** The client id (`submissionIdentifier`) of the device's submission that names it. */
  submissionIdentifier: string;
  contentType: SubmissionImageType;
  size: number;
  /** Of the bytes, 32 lower-case hexadecimal digits. */
  md5: string;
  /** When it was last uploaded. */
  createdAt: string;
}

/**
 * Where push keeps submission images: the same database as the submissions. Scoped by
 * organization: another organization's image loads as null. Each save is whole or absent:
 * a reader never sees the new record with the old bytes, or a record without its bytes.
 */
export interface SubmissionImageStore {
  /**
   * Saves the image under its device and identifier. One already there (same organization,
   * device and identifier) has its bytes and fields replaced, keeping its uuid: a device
   * uploads again when the MD5 it read back differs. Returns the image as stored.
   *
   * In the same write, the device's submissions waiting for this identifier (see
   * SubmissionEvents.namedImages) wait for one image less; the `received` event of each that
   * then has all its images goes to the outbox, listing them.
   */
  save(image: SubmissionImage, bytes: Buffer): Promise<SubmissionImage>;
  /** The image identifiers the submission still waits for, in the order it named them; [] when none (or unknown). */
  awaited(orgId: number, submissionId: number): Promise<string[]>;
  /** The device's image by its identifier, without its bytes; null when unknown. */
  find(orgId: number, deviceId: number, imageIdentifier: string): Promise<SubmissionImage | null>;
  /** The image by its uuid with its bytes; null when unknown or of another organization. */
  read(orgId: number, uuid: string): Promise<{ image: SubmissionImage; bytes: Buffer } | null>;
}
