import type { SqliteQueries } from '@formcast/storage';
import type { SqliteImageWaits } from './sqlite-image-waits';
import type { SubmissionImage, SubmissionImageStore } from './submission-image-store';

// Columns named as the record's fields.
const imageColumns = `uuid, org_id AS orgId, device_id AS deviceId, device_identifier AS deviceIdentifier,
  image_identifier AS imageIdentifier, submission_identifier AS submissionIdentifier, content_type AS contentType,
  size, md5, created_at AS createdAt`;

/**
 * Submission images in the push SQLite file (table `submission_images`, migration 6): the
 * record and its bytes in one row, so a save is one statement and a read one row. A save
 * releases, in its own write, the device's submissions that waited for that image.
 */
export class SqliteSubmissionImages implements SubmissionImageStore {
  constructor(
    private readonly sql: SqliteQueries,
    private readonly waits: SqliteImageWaits,
  ) {}

  async save(image: SubmissionImage, bytes: Buffer): Promise<SubmissionImage> {
    return this.sql.writeGrouped(() => {
      this.sql.run(
        `INSERT INTO submission_images (uuid, org_id, device_id, device_identifier, image_identifier, submission_identifier,
           content_type, size, md5, created_at, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, device_id, image_identifier) DO UPDATE SET device_identifier = excluded.device_identifier,
           submission_identifier = excluded.submission_identifier, content_type = excluded.content_type, size = excluded.size,
           md5 = excluded.md5, created_at = excluded.created_at, bytes = excluded.bytes`,
        image.uuid,
        image.orgId,
        image.deviceId,
        image.deviceIdentifier,
        image.imageIdentifier,
        image.submissionIdentifier,
        image.contentType,
        image.size,
        image.md5,
        image.createdAt,
        bytes,
      );
      this.waits.release(image.orgId, image.deviceId, image.imageIdentifier);
      return this.sql.get<SubmissionImage>(
        `SELECT ${imageColumns} FROM submission_images WHERE org_id = ? AND device_id = ? AND image_identifier = ?`,
        image.orgId,
        image.deviceId,
        image.imageIdentifier,
      )!;
    });
  }

  async find(orgId: number, deviceId: number, imageIdentifier: string): Promise<SubmissionImage | null> {
    return (
      this.sql.get<SubmissionImage>(
        `SELECT ${imageColumns} FROM submission_images WHERE org_id = ? AND device_id = ? AND image_identifier = ?`,
        orgId,
        deviceId,
        imageIdentifier,
      ) ?? null
    );
  }

  async awaited(orgId: number, submissionId: number): Promise<string[]> {
    return this.waits.awaited(orgId, submissionId);
  }

  async read(orgId: number, uuid: string): Promise<{ image: SubmissionImage; bytes: Buffer } | null> {
    const row = this.sql.get<SubmissionImage & { bytes: Buffer }>(
      `SELECT ${imageColumns}, bytes FROM submission_images WHERE uuid = ? AND org_id = ?`,
      uuid,
      orgId,
    );
    if (!row) return null;
    const { bytes, ...image } = row;
    return { image, bytes };
  }
}
