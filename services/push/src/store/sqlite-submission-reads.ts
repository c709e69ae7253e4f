import type { SqliteQueries } from '@formcast/storage';
import type { Submission } from '../domain/records';
import type { SubmissionPage, SubmissionQuery } from '../domain/submission-query';
import type { SubmissionKey } from './push-store';

/** A record as its row holds it: the answers as text. */
type SubmissionRow = Omit<Submission, 'answers'> & { answers: string };

// Columns named as the record's fields, so a row is the record but for its answers.
const submissionColumns = `id, org_id AS orgId, device_id AS deviceId, device_identifier AS deviceIdentifier, device_owner AS deviceOwner,
  form_id AS formId, form_namespace AS formNamespace, form_name AS formName, form_version AS formVersion, oneshot_id AS oneshotId,
  client_submission_id AS clientSubmissionId, answers, submitted_at AS submittedAt, received_at AS receivedAt`;
const toSubmission = ({ answers, ...fields }: SubmissionRow): Submission => ({
  ...fields,
  answers: JSON.parse(answers) as Submission['answers'],
});

/** The push store's reads of submissions on SQLite (the submit, which writes them, is the store's). */
export class SqliteSubmissionReads {
  constructor(private readonly sql: SqliteQueries) {}

  async get(orgId: number, submissionId: number): Promise<Submission | null> {
    const row = this.sql.get<SubmissionRow>(`SELECT ${submissionColumns} FROM form_submissions WHERE org_id = ? AND id = ?`, orgId, submissionId);
    return row ? toSubmission(row) : null;
  }

  async getMany(orgId: number, submissionIds: number[]): Promise<Submission[]> {
    return this.sql
      .all<SubmissionRow>(
        `SELECT ${submissionColumns} FROM form_submissions WHERE org_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        orgId,
        JSON.stringify(submissionIds),
      )
      .map(toSubmission);
  }


  async list(orgId: number, query: SubmissionQuery): Promise<SubmissionPage<Submission>> {
    const filters = ['org_id = @orgId', 'form_id = @formId'];
    if (query.deviceIdentifier !== undefined) filters.push('device_identifier = @deviceIdentifier');
    if (query.submittedAfter !== undefined) filters.push('submitted_at > @submittedAfter');
    if (query.submittedBefore !== undefined) filters.push('submitted_at < @submittedBefore');
    if (query.submittedFrom !== undefined) filters.push('submitted_at >= @submittedFrom');
    if (query.submittedTo !== undefined) filters.push('submitted_at <= @submittedTo');
    // The ids as one JSON array parameter: one statement shape whatever their number.
    if (query.ids !== undefined) filters.push('id IN (SELECT value FROM json_each(@idList))');
    // Any text leaf of the answers (subforms, groups' rows); lower() folds ASCII only, as LIKE would.
    if (query.search !== undefined) {
      filters.push(`EXISTS (SELECT 1 FROM json_tree(form_submissions.answers) WHERE json_tree.type = 'text' AND instr(lower(json_tree.value), lower(@search)) > 0)`);
    }
    const where = filters.join(' AND ');
    const { searchPaths: _paths, ids, ...rest } = query;
    const parameters = { ...rest, orgId, idList: JSON.stringify(ids ?? []) };
    // Both reads at one instant: the count and the page see the same submissions.
    return this.sql.read(() => {
      const { total } = this.sql.get<{ total: number }>(`SELECT count(*) AS total FROM form_submissions WHERE ${where}`, parameters)!;
      const rows = this.sql.all<SubmissionRow>(
        `SELECT ${submissionColumns} FROM form_submissions WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`,
        parameters,
      );
      return { total, submissions: rows.map(toSubmission) };
    });
  }

  /** By its oneshot or its client's submission id; synchronous, so the submit's transaction can read it. */
  find(orgId: number, key: SubmissionKey): Submission | null {
    const row =
      'oneshotId' in key
        ? this.sql.get<SubmissionRow>(`SELECT ${submissionColumns} FROM form_submissions WHERE org_id = ? AND oneshot_id = ?`, orgId, key.oneshotId)
        : this.sql.get<SubmissionRow>(
            `SELECT ${submissionColumns} FROM form_submissions WHERE org_id = ? AND device_id = ? AND client_submission_id = ?`,
            orgId,
            key.deviceId,
            key.clientSubmissionId,
          );
    return row ? toSubmission(row) : null;
  }
}
