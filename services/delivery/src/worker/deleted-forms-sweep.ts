import { randomUUID } from 'node:crypto';
import { Sweep, type Logger } from '@formcast/platform';
import type { FormLookup } from '../directory/form-lookup';
import type { DeliveryStore, FormRef } from '../store';

export interface DeletedFormsSweepOptions {
  /** Time between two sweeps. */
  intervalMs: number;
  /** Forms read per page of the walk (default 200). */
  pageSize?: number;
  logger: Logger;
}

/**
 * The backstop for `directory.form.deleted`, which the directory announces after its delete
 * commits, best effort: a process killed between the two, or a publish that failed, loses
 * it, and the form's destinations (their sealed secrets, their pending deliveries) would
 * stay for good. Each sweep asks the directory, one form at a time, about every form that
 * has destinations, and removes the destinations of those it no longer has, as the event
 * would have. A failure other than not_found ends the sweep; the next one starts over.
 * Replicas may sweep at once: a removal is idempotent.
 */
export class DeletedFormsSweep extends Sweep {
  private readonly pageSize: number;

  constructor(
    private readonly store: DeliveryStore,
    private readonly forms: Pick<FormLookup, 'formExists'>,
    private readonly options: DeletedFormsSweepOptions,
  ) {
    super(options.intervalMs, (error) => options.logger.warn({ err: error }, 'could not check the forms of destinations; will try at the next sweep'));
    this.pageSize = options.pageSize ?? 200;
  }

  /** One sweep now (a stop ends it after the form it is on); resolves with how many destinations it removed. */
  async sweepOnce(): Promise<number> {
    const requestId = `deleted-forms-sweep-${randomUUID()}`;
    let removed = 0;
    for await (const form of this.walk((after: FormRef | undefined, limit) => this.store.destinations.formsWithDestinations(after, limit), this.pageSize)) {
      if (await this.forms.formExists(form.orgId, form.formId, requestId)) continue;
      const gone = await this.store.destinations.deleteFormDestinations(form.orgId, form.formId);
      if (gone > 0) this.options.logger.info({ ...form, destinations: gone }, 'removed the destinations of a form the directory no longer has');
      removed += gone;
    }
    return removed;
  }
}
