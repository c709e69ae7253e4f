import type { AsyncResourceUpdateStatus, AsyncResourceUpdateView, ResourceFilePayload } from '@formcast/contracts';
import type { Resource } from './records';

/**
 * A v4 create or update (resource_v4.md), kept by the resources service until done: queued
 * with its file, claimed by one worker under a lease (`processing`), then completed (the
 * resource's id and version) or failed (why). The file goes once the job ends.
 */
export interface AsyncUpdate {
  /** A UUID: the `async_resource_update_id`. */
  id: string;
  orgId: number;
  /** null: a create. */
  resourceId: number | null;
  description: string | null;
  file: ResourceFilePayload | null;
  status: AsyncResourceUpdateStatus;
  versionWhenQueued: number | null;
  versionWhenCompleted: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A job as queued, before the store keeps it. */
export type NewAsyncUpdate = Pick<AsyncUpdate, 'id' | 'orgId' | 'resourceId' | 'description' | 'file' | 'versionWhenQueued'>;

/** How long a claimed job is its worker's: a process killed meanwhile leaves it to another after this. */
export const asyncUpdateLeaseMs = 60_000;

/** The command id the job's create or update runs under: a job run twice (its worker died) changes the resource once. */
export const asyncUpdateCommandId = (jobId: string) => `async-resource-update:${jobId}`;

/** Where a job is polled. */
export const pollUrl = (jobId: string) => `/api/v4/async_resource_updates/${jobId}`;

/** What a failed job says: the check's message (the same a v3 upload would answer with). */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 1000 ? `${message.slice(0, 1000)}…` : message;
}

/** The job as resource_v4.md shows it; `resource`: the resource it made or changed, once completed (null if deleted since). */
export function toAsyncUpdateView(job: AsyncUpdate, resource: Resource | null): AsyncResourceUpdateView {
  const view: AsyncResourceUpdateView = {
    async_resource_update_id: job.id,
    status: job.status,
    resource_version_when_queued: job.versionWhenQueued,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
  if (job.status === 'completed') {
    if (job.versionWhenCompleted !== null) view.resource_version_when_completed = job.versionWhenCompleted;
    if (resource) {
      view.resource = {
        id: resource.id,
        identifier: resource.identifier,
        original_filename: resource.originalFilename,
        version: resource.version,
        description: resource.description,
      };
    }
  } else if (job.status === 'failed') {
    view.error = job.error ?? 'The update failed';
  } else {
    view.poll_url = pollUrl(job.id);
  }
  return view;
}
