import type { AsyncUpdate, NewAsyncUpdate } from '../domain/async-update';
import type { ServiceStore } from '@formcast/storage';
import type { CheckedFile, Resource } from '../domain/records';

/** What changes in an update: only what is given. */
export interface ResourcePatch {
  description?: string;
  /** A new file: its bytes, name, type, identifier and summary replace the old; version + 1. */
  file?: CheckedFile;
}

/**
 * The resources service's store port. Metadata and file bytes are kept apart (a BLOB
 * table in SQLite, GridFS in MongoDB), so listing and describing never read the bytes.
 * Every method is scoped by organization: an id of another organization behaves exactly
 * as an unknown id.
 *
 * `commandId` is the id of the command making the change. A command delivered twice (a
 * replica died after the work, before its ack) must not change twice: a create whose
 * command id is already stored returns that resource, and an update whose command id was
 * the last to change the resource returns it unchanged.
 *
 * Errors: AppError('not_found') for an unknown (or foreign) resource id; nothing is
 * changed when a method throws.
 */
export interface ResourceStore extends AsyncUpdateStore, ServiceStore {
  /** Ascending by id, without the bytes. */
  listResources(orgId: number): Promise<Resource[]>;
  getResource(orgId: number, resourceId: number): Promise<Resource | null>;
  /** The resource with its bytes, or null. */
  readResourceFile(orgId: number, resourceId: number): Promise<{ resource: Resource; bytes: Buffer } | null>;
  /** A new resource at version 0. */
  createResource(orgId: number, input: { description: string; file: CheckedFile }, commandId: string): Promise<Resource>;
  updateResource(orgId: number, resourceId: number, patch: ResourcePatch, commandId: string): Promise<Resource>;
  /** Removes the resource and its bytes. */
  deleteResource(orgId: number, resourceId: number): Promise<void>;
}

/**
 * v4's queued creates and updates, kept in the resources store's database. Scoped by
 * organization where a client names a job; the worker's methods see every organization.
 */
export interface AsyncUpdateStore {
  /** Keeps the job with its file's bytes; the same command again answers the job it queued. */
  queueUpdate(job: NewAsyncUpdate, bytes: Buffer | undefined, commandId: string, now: string): Promise<AsyncUpdate>;
  getUpdate(orgId: number, jobId: string): Promise<AsyncUpdate | null>;
  /**
   * Takes the oldest job that is queued, or processing with its lease ended (its worker
   * died), as `processing` until `leaseUntil`; with its bytes. null: none.
   */
  claimUpdate(now: string, leaseUntil: string): Promise<{ job: AsyncUpdate; bytes: Buffer | undefined } | null>;
  /** The job's end: completed at the resource's version, or failed; its bytes go. */
  finishUpdate(jobId: string, outcome: { resourceId: number; version: number } | { error: string }, now: string): Promise<void>;
}
