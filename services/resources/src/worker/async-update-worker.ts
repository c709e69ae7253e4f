import { isAppError, type Logger } from '@formcast/platform';
import { asyncUpdateCommandId, asyncUpdateLeaseMs, failureMessage, type AsyncUpdate } from '../domain/async-update';
import { checkFile, type FileRules } from '../domain/checked-file';
import type { Resource } from '../domain/records';
import type { ResourcePatch, ResourceStore } from '../store/resource-store';

/** The worker's look when nothing woke it (issue 24: it looked every second, idle or not). */
export const asyncUpdateSafetyPollMs = 10_000;

/**
 * Does v4's queued creates and updates, one at a time, in the order they were queued: woken
 * when one is queued, at its start, and looking every `pollMs` (10 s: a safety net) for what
 * a killed process left claimed (its lease, a minute, ended) or another process queued. A job's change runs under a command id of its own, so a job run
 * again after its worker died changes the resource once. A refusal of the file (AppError)
 * fails the job with its message; anything else (the store not answering) leaves the job to
 * be claimed again when its lease ends.
 */
export class AsyncUpdateWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: ResourceStore,
    private readonly fileRules: FileRules,
    private readonly options: { pollMs?: number; leaseMs?: number; logger?: Logger; clock?: () => number } = {},
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? asyncUpdateSafetyPollMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs the queue now (or once more after the current run). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private now(): number {
    return this.options.clock?.() ?? Date.now();
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped) {
        const now = this.now();
        const claimed = await this.store.claimUpdate(new Date(now).toISOString(), new Date(now + (this.options.leaseMs ?? asyncUpdateLeaseMs)).toISOString());
        if (!claimed) return;
        await this.run(claimed.job, claimed.bytes);
      }
    } catch (error) {
      this.options.logger?.error({ err: error }, 'async resource updates: the store did not answer; trying again later');
    }
  }

  private async run(job: AsyncUpdate, bytes: Buffer | undefined): Promise<void> {
    let resource: Resource;
    try {
      resource = await this.apply(job, bytes);
    } catch (error) {
      if (!isAppError(error)) throw error;
      await this.store.finishUpdate(job.id, { error: failureMessage(error) }, new Date(this.now()).toISOString());
      return;
    }
    await this.store.finishUpdate(job.id, { resourceId: resource.id, version: resource.version }, new Date(this.now()).toISOString());
  }

  private async apply(job: AsyncUpdate, bytes: Buffer | undefined): Promise<Resource> {
    const file = job.file === null ? undefined : await checkFile(job.file, bytes, this.fileRules);
    const commandId = asyncUpdateCommandId(job.id);
    if (job.resourceId === null) {
      return this.store.createResource(job.orgId, { description: job.description ?? '', file: file! }, commandId);
    }
    const patch: ResourcePatch = {};
    if (job.description !== null) patch.description = job.description;
    if (file) patch.file = file;
    return this.store.updateResource(job.orgId, job.resourceId, patch, commandId);
  }
}
