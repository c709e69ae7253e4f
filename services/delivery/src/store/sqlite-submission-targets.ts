import type { SqliteDatabase } from '@formcast/storage';
import { BoundedCache } from '@formcast/platform';
import type { SubmissionTarget } from '../domain/records';

/**
 * The active destinations of each form, as `activeDestinations` read them, kept while
 * nothing may have changed them: every submission event reads its form's, and the read was
 * 8% of the delivery service's time in S6 (issue 24), for a list that changes when someone
 * edits a destination. Forgotten entirely when this connection changes a destination
 * (`forget`, called by every write of SqliteDestinations, and again once it commits), and
 * when another connection commits to the file (`PRAGMA data_version`: another process on
 * the file, whatever it wrote). Not used inside a transaction, which may still roll back.
 */
export class SubmissionTargetCache {
  /** Forms whose active destinations are kept. */
  private readonly forms = new BoundedCache<string, SubmissionTarget[]>(10_000);
  private readonly dataVersion: { get(): unknown };
  private seenVersion: unknown = undefined;

  constructor(private readonly db: SqliteDatabase) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** The form's targets, from `read` when they are not kept (or may have changed). */
  targets(orgId: number, formId: number, read: () => SubmissionTarget[]): SubmissionTarget[] {
    if (this.db.inTransaction) return read();
    const version = this.dataVersion.get();
    if (version !== this.seenVersion) {
      this.forms.clear();
      this.seenVersion = version;
    }
    return [...this.forms.getOrMake(`${orgId}:${formId}`, read)];
  }

  forget(): void {
    this.forms.clear();
  }
}
