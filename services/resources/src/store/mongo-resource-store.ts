import { AppError } from '@formcast/platform';
import { deleteGridFsFile, downloadGridFsFile, dropIndexIfPresent, isMongoDuplicateKey, MongoStore, nextMongoId, uploadGridFsFile } from '@formcast/storage';
import { mongo, type Connection } from 'mongoose';
import type { AsyncUpdate, NewAsyncUpdate } from '../domain/async-update';
import type { CheckedFile, Resource } from '../domain/records';
import { resourceModels, commandIndexName, type ResourceDoc, type ResourceModels } from './mongo-models';
import { resourceNotFound } from './resource-errors';
import type { ResourcePatch, ResourceStore } from './resource-store';

/** The GridFS bucket of the file bytes: `resource_files.files` and `resource_files.chunks`. */
export const resourceFilesBucket = 'resource_files';

/**
 * The resources store on MongoDB (distributed mode): metadata in `resources`, bytes in
 * GridFS. GridFS writes cannot join a transaction, so each change orders its steps to
 * never lose a file a resource points at: the new file is written first, then the one
 * metadata document is switched to it atomically, then the old file is deleted. A process
 * dying between two steps leaves at most an unreferenced GridFS file (its metadata holds
 * orgId and resourceId, so a sweep can find it), never a resource without its bytes.
 *
 * A command applies once even when two deliveries of it run at the same time (an AMQP
 * requeue during a long upload, an Idempotency-Key reclaimed): a create inserts under the
 * unique index { orgId, commandId }, and the one that loses gives its file back and answers
 * the winner's resource; an update switches the document only where its command id is not
 * the command's already (one conditional update), and the one that finds it is gives its file
 * back and answers the resource as the first left it.
 */
export class MongoResourceStore extends MongoStore<ResourceModels> implements ResourceStore {
  constructor(connection: Connection) {
    super(connection, resourceModels, 'resources');
  }

  /** At start, before the indexes: the { orgId, commandId } index of older releases was not unique (see mongo-models). */
  protected override async prepare(): Promise<void> {
    const indexes = await this.database().collection('resources').indexes().catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 26) return []; // no collection yet
      throw error;
    });
    const retired = indexes.find((index) => index.name === commandIndexName && index.unique !== true);
    if (retired) await dropIndexIfPresent(this.database(), 'resources', commandIndexName);
  }

  async listResources(orgId: number): Promise<Resource[]> {
    await this.ready;
    // resources: { orgId, _id }.
    const docs = await this.models.Resource.find({ orgId }).sort({ _id: 1 }).lean<ResourceDoc[]>();
    return docs.map(resourceFromDoc);
  }

  async getResource(orgId: number, resourceId: number): Promise<Resource | null> {
    const doc = await this.resourceDoc(orgId, resourceId);
    return doc ? resourceFromDoc(doc) : null;
  }

  async readResourceFile(orgId: number, resourceId: number): Promise<{ resource: Resource; bytes: Buffer } | null> {
    const doc = await this.resourceDoc(orgId, resourceId);
    if (!doc) return null;
    const bytes = await this.downloadFile(doc.fileId, doc.byteSize);
    // null: the resource was changed or deleted between the two reads; a new read sees which.
    if (bytes === null) return this.readResourceFileAgain(orgId, resourceId, doc.fileId);
    return { resource: resourceFromDoc(doc), bytes };
  }

  async createResource(orgId: number, input: { description: string; file: CheckedFile }, commandId: string): Promise<Resource> {
    await this.ready;
    const { Resource } = this.models;
    const done = await this.createdBy(orgId, commandId);
    if (done) return resourceFromDoc(done);
    const id = await nextMongoId(this.connection, 'resources');
    const fileId = await this.uploadFile(orgId, id, input.file);
    const createdAt = new Date();
    const doc: ResourceDoc = {
      _id: id,
      orgId,
      ...fileFields(input.file),
      description: input.description,
      version: 0,
      fileId,
      commandId,
      createdAt,
      updatedAt: createdAt,
    };
    try {
      await Resource.create(doc);
    } catch (error) {
      await this.deleteFile(fileId);
      if (!isMongoDuplicateKey(error)) throw error;
      // Another delivery of this command inserted first (the unique { orgId, commandId }): its resource is the answer.
      const first = await this.createdBy(orgId, commandId);
      if (!first) throw error;
      return resourceFromDoc(first);
    }
    return resourceFromDoc(doc);
  }

  /** The resource the command created, if it did (and is still the last command to change it). */
  private createdBy(orgId: number, commandId: string): Promise<ResourceDoc | null> {
    // resources: the unique { orgId, commandId }.
    return this.models.Resource.findOne({ orgId, commandId }).lean<ResourceDoc>();
  }

  async updateResource(orgId: number, resourceId: number, patch: ResourcePatch, commandId: string): Promise<Resource> {
    await this.ready;
    const { Resource } = this.models;
    const current = await this.resourceDoc(orgId, resourceId);
    if (!current) throw resourceNotFound(resourceId);
    if (current.commandId === commandId) return resourceFromDoc(current);

    const updatedAt = new Date();
    const set: Partial<ResourceDoc> = { commandId, updatedAt };
    if (patch.description !== undefined) set.description = patch.description;
    // Only where this command has not changed it already: of two deliveries racing, one switches it.
    // resources: by _id.
    const notYet = { _id: resourceId, orgId, commandId: { $ne: commandId } };
    if (!patch.file) {
      const after = await Resource.findOneAndUpdate(notYet, { $set: set }, { returnDocument: 'after' }).lean<ResourceDoc>();
      return after ? resourceFromDoc(after) : this.appliedBefore(orgId, resourceId, commandId);
    }

    const fileId = await this.uploadFile(orgId, resourceId, patch.file);
    Object.assign(set, fileFields(patch.file), { fileId });
    // One atomic switch; `before` names the file it replaced, whichever update came first.
    const before = await Resource.findOneAndUpdate(notYet, { $set: set, $inc: { version: 1 } }, { returnDocument: 'before' }).lean<ResourceDoc>();
    if (!before) {
      await this.deleteFile(fileId);
      return this.appliedBefore(orgId, resourceId, commandId);
    }
    await this.deleteFile(before.fileId);
    return resourceFromDoc({ ...before, ...set, version: before.version + 1 });
  }

  /** An update's conditional switch matched nothing: the resource is gone, or this command changed it already. */
  private async appliedBefore(orgId: number, resourceId: number, commandId: string): Promise<Resource> {
    const now = await this.resourceDoc(orgId, resourceId);
    if (!now) throw resourceNotFound(resourceId);
    // This command changed it (possibly another one since, between the switch and this read:
    // its state is then the answer, as SQLite would answer it after both).
    return resourceFromDoc(now);
  }

  async deleteResource(orgId: number, resourceId: number): Promise<void> {
    await this.ready;
    const deleted = await this.models.Resource.findOneAndDelete({ _id: resourceId, orgId }).lean<ResourceDoc>();
    if (!deleted) throw resourceNotFound(resourceId);
    await this.deleteFile(deleted.fileId);
  }

  // v4's queued creates and updates: documents of `async_updates`, their files in GridFS until the job ends.

  private asyncUpdates(): mongo.Collection<AsyncUpdateDoc> {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The resources database is not connected');
    return db.collection<AsyncUpdateDoc>('async_updates');
  }

  private asyncIndexes: Promise<unknown> | undefined;

  async queueUpdate(job: NewAsyncUpdate, bytes: Buffer | undefined, commandId: string, now: string): Promise<AsyncUpdate> {
    await this.ready;
    // A redelivered queue command finds its job; the unfinished ones are claimed oldest first.
    this.asyncIndexes ??= Promise.all([
      this.asyncUpdates().createIndex({ orgId: 1, commandId: 1 }, { unique: true }),
      this.asyncUpdates().createIndex({ status: 1, createdAt: 1 }),
    ]);
    await this.asyncIndexes;
    const done = await this.asyncUpdates().findOne({ orgId: job.orgId, commandId });
    if (done) return asyncUpdateFromDoc(done);
    let fileId: mongo.ObjectId | null = null;
    if (bytes !== undefined) {
      fileId = await uploadGridFsFile(this.bucket(), `async-update-${job.id}`, bytes, { orgId: job.orgId, asyncUpdateId: job.id });
    }
    const doc: AsyncUpdateDoc = {
      _id: job.id,
      orgId: job.orgId,
      resourceId: job.resourceId,
      description: job.description,
      file: job.file,
      fileId,
      fileBytes: bytes?.length ?? null,
      status: 'queued',
      versionWhenQueued: job.versionWhenQueued,
      versionWhenCompleted: null,
      error: null,
      claimedUntil: null,
      commandId,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.asyncUpdates().insertOne(doc);
    } catch (error) {
      if (fileId) await this.deleteFile(fileId);
      // Two replicas queuing the same command: the first one's job.
      const first = await this.asyncUpdates().findOne({ orgId: job.orgId, commandId });
      if (first) return asyncUpdateFromDoc(first);
      throw error;
    }
    return asyncUpdateFromDoc(doc);
  }

  async getUpdate(orgId: number, jobId: string): Promise<AsyncUpdate | null> {
    await this.ready;
    const doc = await this.asyncUpdates().findOne({ _id: jobId, orgId });
    return doc ? asyncUpdateFromDoc(doc) : null;
  }

  async claimUpdate(now: string, leaseUntil: string): Promise<{ job: AsyncUpdate; bytes: Buffer | undefined } | null> {
    await this.ready;
    // One atomic change: two workers never claim one job.
    const doc = await this.asyncUpdates().findOneAndUpdate(
      { $or: [{ status: 'queued' }, { status: 'processing', claimedUntil: { $lt: now } }] },
      { $set: { status: 'processing', claimedUntil: leaseUntil, updatedAt: now } },
      { sort: { createdAt: 1, _id: 1 }, returnDocument: 'after' },
    );
    if (!doc) return null;
    const bytes = doc.fileId ? await this.downloadFile(doc.fileId, doc.fileBytes ?? 0) : null;
    return { job: asyncUpdateFromDoc(doc), bytes: bytes ?? undefined };
  }

  async finishUpdate(jobId: string, outcome: { resourceId: number; version: number } | { error: string }, now: string): Promise<void> {
    await this.ready;
    const set =
      'error' in outcome
        ? { status: 'failed' as const, error: outcome.error }
        : { status: 'completed' as const, resourceId: outcome.resourceId, versionWhenCompleted: outcome.version };
    const before = await this.asyncUpdates().findOneAndUpdate({ _id: jobId }, { $set: { ...set, fileId: null, claimedUntil: null, updatedAt: now } });
    if (before?.fileId) await this.deleteFile(before.fileId);
  }

  // GridFS -----------------------------------------------------------------------------

  private bucket(): mongo.GridFSBucket {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The resources database is not connected');
    return new mongo.GridFSBucket(db, { bucketName: resourceFilesBucket });
  }

  /**
   * The file written whole, or a rejection: a chunk or the files document the server did not
   * take fails the upload (see endWritable), and the chunks written before are deleted, so a
   * failed upload leaves nothing (should that delete fail too, the chunks carry `files_id`
   * with no files document: `resource_files.chunks` minus `resource_files.files`).
   */
  private uploadFile(orgId: number, resourceId: number, file: CheckedFile): Promise<mongo.ObjectId> {
    // The GridFS file name is informational only; the resource keeps the client's name.
    return uploadGridFsFile(this.bucket(), `resource-${resourceId}`, file.bytes, { orgId, resourceId, contentType: file.contentType });
  }

  /**
   * The file's bytes, or null when it no longer exists whole: deleted (not found), or deleted
   * while it was read (a chunk missing, or fewer bytes than the resource says: GridFS ends the
   * read quietly where the chunks end). The caller reads the resource again to tell which.
   */
  private downloadFile(fileId: mongo.ObjectId, byteSize: number): Promise<Buffer | null> {
    return downloadGridFsFile(this.bucket(), fileId, byteSize);
  }

  private async readResourceFileAgain(
    orgId: number,
    resourceId: number,
    missingFileId: mongo.ObjectId,
  ): Promise<{ resource: Resource; bytes: Buffer } | null> {
    const doc = await this.resourceDoc(orgId, resourceId);
    if (!doc) return null;
    if (doc.fileId.equals(missingFileId)) {
      // Still the same file: not a race but a file lost or damaged; a 500 says so, not a 404.
      throw new Error(`The bytes of resource ${resourceId} (GridFS file ${missingFileId.toHexString()}) are missing or incomplete`);
    }
    const bytes = await this.downloadFile(doc.fileId, doc.byteSize);
    return bytes === null ? null : { resource: resourceFromDoc(doc), bytes };
  }

  /** Deletes a GridFS file; one already gone is fine. */
  private deleteFile(fileId: mongo.ObjectId): Promise<void> {
    return deleteGridFsFile(this.bucket(), fileId);
  }

  private async resourceDoc(orgId: number, resourceId: number): Promise<ResourceDoc | null> {
    await this.ready;
    // resources: by _id (orgId checked on the one document).
    return this.models.Resource.findOne({ _id: resourceId, orgId }).lean<ResourceDoc>();
  }
}

function fileFields(file: CheckedFile) {
  return {
    originalFilename: file.originalFilename,
    contentType: file.contentType,
    identifier: file.identifier,
    byteSize: file.bytes.length,
    sha256: file.sha256,
    contentSummary: file.contentSummary,
  };
}

function resourceFromDoc({ _id, fileId: _fileId, commandId: _commandId, createdAt, updatedAt, ...fields }: ResourceDoc): Resource {
  return { id: _id, ...fields, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/** A v4 job in `async_updates`; `fileId`: its file in GridFS until it ends. */
interface AsyncUpdateDoc {
  _id: string;
  orgId: number;
  resourceId: number | null;
  description: string | null;
  file: AsyncUpdate['file'];
  fileId: mongo.ObjectId | null;
  /** The job file's length: a read that ends short (GridFS ends quietly where chunks end) is no file. */
  fileBytes: number | null;
  status: AsyncUpdate['status'];
  versionWhenQueued: number | null;
  versionWhenCompleted: number | null;
  error: string | null;
  /** ISO 8601 UTC, compared as text. */
  claimedUntil: string | null;
  commandId: string;
  createdAt: string;
  updatedAt: string;
}

function asyncUpdateFromDoc({ _id, fileId: _fileId, fileBytes: _fileBytes, claimedUntil: _claimedUntil, commandId: _commandId, ...fields }: AsyncUpdateDoc): AsyncUpdate {
  return { id: _id, ...fields };
}
