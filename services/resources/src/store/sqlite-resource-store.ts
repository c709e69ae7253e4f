import { nextSqliteId, SqliteServiceStore, type SqliteDatabase } from '@formcast/storage';
import type { AsyncUpdate, NewAsyncUpdate } from '../domain/async-update';
import type { CheckedFile, Resource } from '../domain/records';
import { resourceNotFound } from './resource-errors';
import type { ResourcePatch, ResourceStore } from './resource-store';
import { resourceMigrations } from './sqlite-migrations';
import { toResource, type ResourceRow } from './sqlite-resource-rows';

/**
 * The resources store on SQLite (embedded mode): metadata in `resources`, bytes in the
 * `resource_file_chunks` BLOB table, in chunks of `fileChunkBytes`. better-sqlite3 is synchronous, so each method runs to
 * completion before another starts; writes still go through IMMEDIATE transactions so a
 * second process on the same file can never interleave with them.
 */
/** Written one at a time, so SQLite never holds more than this of a file at once. */
export const fileChunkBytes = 1024 * 1024;

export class SqliteResourceStore extends SqliteServiceStore implements ResourceStore {

  /** `database`: as SqliteServiceStore takes it. */
  constructor(database: SqliteDatabase | string) {
    super(database, resourceMigrations);
  }

  async listResources(orgId: number): Promise<Resource[]> {
    return this.sql.all<ResourceRow>('SELECT * FROM resources WHERE org_id = ? ORDER BY id', orgId).map(toResource);
  }

  async getResource(orgId: number, resourceId: number): Promise<Resource | null> {
    const row = this.resourceRow(orgId, resourceId);
    return row ? toResource(row) : null;
  }

  async readResourceFile(orgId: number, resourceId: number): Promise<{ resource: Resource; bytes: Buffer } | null> {
    return this.sql.read(() => {
      const row = this.resourceRow(orgId, resourceId);
      if (!row) return null;
      const chunks = this.sql.all<{ bytes: Buffer }>(
        'SELECT bytes FROM resource_file_chunks WHERE org_id = ? AND resource_id = ? ORDER BY seq',
        orgId,
        resourceId,
      );
      return { resource: toResource(row), bytes: chunks.length === 1 ? chunks[0]!.bytes : Buffer.concat(chunks.map((chunk) => chunk.bytes)) };
    });
  }

  async createResource(orgId: number, input: { description: string; file: CheckedFile }, commandId: string): Promise<Resource> {
    return this.sql.write(() => {
      const done = this.sql.get<ResourceRow>(
        'SELECT * FROM resources WHERE org_id = ? AND command_id = ?',
        orgId,
        commandId,
      );
      if (done) return toResource(done);
      const id = nextSqliteId(this.db, 'resources');
      const createdAt = now();
      const { file } = input;
      this.sql.run(
        `INSERT INTO resources (id, org_id, original_filename, description, content_type, version, identifier,
                                byte_size, sha256, content_summary, command_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        orgId,
        file.originalFilename,
        input.description,
        file.contentType,
        file.identifier,
        file.bytes.length,
        file.sha256,
        JSON.stringify(file.contentSummary),
        commandId,
        createdAt,
        createdAt,
      );
      this.writeFile(orgId, id, file.bytes);
      return this.requireResource(orgId, id);
    });
  }

  async updateResource(orgId: number, resourceId: number, patch: ResourcePatch, commandId: string): Promise<Resource> {
    return this.sql.write(() => {
      const row = this.resourceRow(orgId, resourceId);
      if (!row) throw resourceNotFound(resourceId);
      if (row.command_id === commandId) return toResource(row);
      const { file } = patch;
      this.sql.run(
        `UPDATE resources SET description = ?, command_id = ?, updated_at = ? WHERE org_id = ? AND id = ?`,
        patch.description ?? row.description,
        commandId,
        now(),
        orgId,
        resourceId,
      );
      if (file) {
        this.sql.run(
          `UPDATE resources SET original_filename = ?, content_type = ?, version = version + 1, identifier = ?,
                                byte_size = ?, sha256 = ?, content_summary = ?
           WHERE org_id = ? AND id = ?`,
          file.originalFilename,
          file.contentType,
          file.identifier,
          file.bytes.length,
          file.sha256,
          JSON.stringify(file.contentSummary),
          orgId,
          resourceId,
        );
        this.sql.run('DELETE FROM resource_file_chunks WHERE org_id = ? AND resource_id = ?', orgId, resourceId);
        this.writeFile(orgId, resourceId, file.bytes);
      }
      return this.requireResource(orgId, resourceId);
    });
  }

  /** Inside the caller's transaction. An empty file is one empty chunk, so a file always has one. */
  private writeFile(orgId: number, resourceId: number, bytes: Buffer): void {
    let seq = 0;
    for (let offset = 0; offset < bytes.length || seq === 0; offset += fileChunkBytes, seq++) {
      this.sql.run(
        'INSERT INTO resource_file_chunks (resource_id, org_id, seq, bytes) VALUES (?, ?, ?, ?)',
        resourceId,
        orgId,
        seq,
        bytes.subarray(offset, offset + fileChunkBytes),
      );
    }
  }

  async deleteResource(orgId: number, resourceId: number): Promise<void> {
    this.sql.write(() => {
      if (!this.resourceRow(orgId, resourceId)) throw resourceNotFound(resourceId);
      // Its file chunks go with it (ON DELETE CASCADE).
      this.sql.run('DELETE FROM resources WHERE org_id = ? AND id = ?', orgId, resourceId);
    });
  }

  async queueUpdate(job: NewAsyncUpdate, bytes: Buffer | undefined, commandId: string, now: string): Promise<AsyncUpdate> {
    return this.sql.write(() => {
      const done = this.sql.get<AsyncUpdateRow>(`SELECT ${asyncUpdateColumns} FROM async_updates WHERE org_id = ? AND command_id = ?`, job.orgId, commandId);
      if (done) return toAsyncUpdate(done);
      this.sql.run(
        `INSERT INTO async_updates (id, org_id, resource_id, description, file, bytes, status, version_when_queued, command_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
        job.id,
        job.orgId,
        job.resourceId,
        job.description,
        job.file === null ? null : JSON.stringify(job.file),
        bytes ?? null,
        job.versionWhenQueued,
        commandId,
        now,
        now,
      );
      return toAsyncUpdate(this.sql.get<AsyncUpdateRow>(`SELECT ${asyncUpdateColumns} FROM async_updates WHERE id = ?`, job.id)!);
    });
  }

  async getUpdate(orgId: number, jobId: string): Promise<AsyncUpdate | null> {
    const row = this.sql.get<AsyncUpdateRow>(`SELECT ${asyncUpdateColumns} FROM async_updates WHERE org_id = ? AND id = ?`, orgId, jobId);
    return row ? toAsyncUpdate(row) : null;
  }

  async claimUpdate(now: string, leaseUntil: string): Promise<{ job: AsyncUpdate; bytes: Buffer | undefined } | null> {
    return this.sql.write(() => {
      const row = this.sql.get<AsyncUpdateRow & { bytes: Buffer | null }>(
        `SELECT ${asyncUpdateColumns}, bytes FROM async_updates WHERE status = 'queued' OR (status = 'processing' AND claimed_until < ?) ORDER BY created_at, id LIMIT 1`,
        now,
      );
      if (!row) return null;
      this.sql.run(`UPDATE async_updates SET status = 'processing', claimed_until = ?, updated_at = ? WHERE id = ?`, leaseUntil, now, row.id);
      const { bytes, ...job } = row;
      return { job: toAsyncUpdate({ ...job, status: 'processing', updatedAt: now }), bytes: bytes ?? undefined };
    });
  }

  async finishUpdate(jobId: string, outcome: { resourceId: number; version: number } | { error: string }, now: string): Promise<void> {
    this.sql.write(() => {
      if ('error' in outcome) {
        this.sql.run(`UPDATE async_updates SET status = 'failed', error = ?, bytes = NULL, claimed_until = NULL, updated_at = ? WHERE id = ?`, outcome.error, now, jobId);
      } else {
        this.sql.run(
          `UPDATE async_updates SET status = 'completed', resource_id = ?, version_when_completed = ?, bytes = NULL, claimed_until = NULL, updated_at = ? WHERE id = ?`,
          outcome.resourceId,
          outcome.version,
          now,
          jobId,
        );
      }
    });
  }

  // Shared steps -----------------------------------------------------------------------

  private resourceRow(orgId: number, resourceId: number): ResourceRow | undefined {
    return this.sql.get<ResourceRow>('SELECT * FROM resources WHERE org_id = ? AND id = ?', orgId, resourceId);
  }

  private requireResource(orgId: number, resourceId: number): Resource {
    const row = this.resourceRow(orgId, resourceId);
    if (!row) throw resourceNotFound(resourceId);
    return toResource(row);
  }
}

function now(): string {
  return new Date().toISOString();
}

/** The columns of `async_updates` a job is read from, under AsyncUpdate's names. */
const asyncUpdateColumns = `id, org_id AS orgId, resource_id AS resourceId, description, file, status,
  version_when_queued AS versionWhenQueued, version_when_completed AS versionWhenCompleted, error,
  created_at AS createdAt, updated_at AS updatedAt`;

/** A job as read: its file still JSON text. */
type AsyncUpdateRow = Omit<AsyncUpdate, 'file'> & { file: string | null };

function toAsyncUpdate({ file, ...job }: AsyncUpdateRow): AsyncUpdate {
  return { ...job, file: file === null ? null : (JSON.parse(file) as AsyncUpdate['file']) };
}
