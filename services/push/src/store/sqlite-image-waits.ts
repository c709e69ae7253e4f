import type { Envelope, SubmissionReceivedPayload } from '@formcast/contracts';
import type { SqliteQueries } from '@formcast/storage';
import type { Submission } from '../domain/records';
import { withSubmissionImages, type AnnouncedImage } from '../domain/submission-events';

interface WaitRow {
  submission_id: number;
  named: string;
  awaiting: string;
  event: string;
}

/**
 * Submissions waiting for their images, in the push SQLite file (`submission_image_waits`,
 * migration 7): each with the images it names, those still missing and its `received` event,
 * held out of the outbox until the last image is stored. Both sides run inside the write that
 * calls them (submit's, an image save's), so a submission and its last image never miss each
 * other, and the event is written once.
 */
export class SqliteImageWaits {
  constructor(
    private readonly sql: SqliteQueries,
    private readonly appendEvent: (event: Envelope) => void,
  ) {}

  /** Inside submit's write: the event, with its images, to the outbox when all are stored; else held. */
  announceOrHold(submission: Submission, event: Envelope<SubmissionReceivedPayload>, named: string[]): void {
    if (named.length === 0) {
      this.appendEvent(event);
      return;
    }
    const stored = this.storedImages(submission.orgId, submission.deviceId, named);
    const awaiting = named.filter((identifier) => !stored.some((image) => image.imageIdentifier === identifier));
    if (awaiting.length === 0) {
      this.appendEvent(withSubmissionImages(event, stored));
      return;
    }
    this.sql.run(
      'INSERT INTO submission_image_waits (submission_id, org_id, device_id, named, awaiting, event) VALUES (?, ?, ?, ?, ?, ?)',
      submission.id,
      submission.orgId,
      submission.deviceId,
      JSON.stringify(named),
      JSON.stringify(awaiting),
      JSON.stringify(event),
    );
  }

  /** Inside an image save's write: the device's submissions waiting for it wait for one less; those complete are announced. */
  release(orgId: number, deviceId: number, imageIdentifier: string): void {
    const waits = this.sql.all<WaitRow>(
      `SELECT submission_id, named, awaiting, event FROM submission_image_waits
       WHERE org_id = ? AND device_id = ? AND EXISTS (SELECT 1 FROM json_each(awaiting) WHERE value = ?)`,
      orgId,
      deviceId,
      imageIdentifier,
    );
    for (const wait of waits) {
      const awaiting = (JSON.parse(wait.awaiting) as string[]).filter((identifier) => identifier !== imageIdentifier);
      if (awaiting.length > 0) {
        this.sql.run('UPDATE submission_image_waits SET awaiting = ? WHERE submission_id = ?', JSON.stringify(awaiting), wait.submission_id);
        continue;
      }
      const named = JSON.parse(wait.named) as string[];
      this.appendEvent(withSubmissionImages(JSON.parse(wait.event) as Envelope<SubmissionReceivedPayload>, this.storedImages(orgId, deviceId, named)));
      this.sql.run('DELETE FROM submission_image_waits WHERE submission_id = ?', wait.submission_id);
    }
  }

  /** The images the submission still waits for, in the order it named them; [] when none (or unknown). */
  awaited(orgId: number, submissionId: number): string[] {
    const row = this.sql.get<{ awaiting: string }>('SELECT awaiting FROM submission_image_waits WHERE org_id = ? AND submission_id = ?', orgId, submissionId);
    return row ? (JSON.parse(row.awaiting) as string[]) : [];
  }

  /** Those of the named images the device has stored, in the order named. */
  private storedImages(orgId: number, deviceId: number, named: string[]): AnnouncedImage[] {
    const rows = this.sql.all<AnnouncedImage>(
      `SELECT image_identifier AS imageIdentifier, uuid, content_type AS contentType, size, md5 FROM submission_images
       WHERE org_id = ? AND device_id = ? AND image_identifier IN (SELECT value FROM json_each(?))`,
      orgId,
      deviceId,
      JSON.stringify(named),
    );
    return named.flatMap((identifier) => rows.filter((row) => row.imageIdentifier === identifier));
  }
}
