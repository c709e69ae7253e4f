import { randomUUID } from 'node:crypto';
import { Sweep, type Logger } from '@formcast/platform';
import { deviceExists, formExists } from '../directory-cache/record-exists';
import type { PushDeps } from '../handlers/deps';
import { revokeEveryOutstanding, revokeOutstandingOfForm } from '../revocation/revoke-outstanding';
import type { DeviceRef } from '../store';

export interface DeletionsSweepOptions {
  /** Time between two sweeps. */
  intervalMs: number;
  /** Devices read per page of the walk (default 200). */
  pageSize?: number;
  logger: Logger;
}

type SweepDeps = Pick<PushDeps, 'store' | 'directory' | 'eventsWritten' | 'revokeChunk'>;

/**
 * The backstop for `directory.device.deleted` and `directory.form.deleted`, which the
 * directory announces after its delete commits, best effort: a process killed between the
 * two, or a publish that failed, loses them, and the oneshots would stay outstanding for good.
 * Each sweep walks the devices that have outstanding oneshots, asking the directory about
 * each (through the cache), and revokes those of a device it no longer has; then, for each
 * organization met, asks about every form its outstanding oneshots are of, and revokes those
 * of a form it no longer has. As the events would have. A failure other than not_found ends
 * the sweep; the next one starts over. Replicas may sweep at once: the second finds nothing
 * outstanding.
 */
export class DeletionsSweep extends Sweep {
  private readonly pageSize: number;

  constructor(
    private readonly deps: SweepDeps,
    private readonly options: DeletionsSweepOptions,
  ) {
    super(options.intervalMs, (error) => options.logger.warn({ err: error }, 'could not check the devices and forms of outstanding oneshots; will try at the next sweep'));
    this.pageSize = options.pageSize ?? 200;
  }

  /** One sweep now (a stop ends it after the device or form it is on); resolves with how many oneshots it revoked. */
  async sweepOnce(): Promise<number> {
    const sweepId = randomUUID();
    const requestId = `deletions-sweep-${sweepId}`;
    const organizations = new Set<number>();
    let revoked = 0;
    for await (const { orgId, deviceId } of this.walk((after: DeviceRef | undefined, limit) => this.deps.store.devicesWithOutstanding(after, limit), this.pageSize)) {
      organizations.add(orgId);
      if (await deviceExists(this.deps.directory, orgId, deviceId, requestId)) continue;
      const done = await revokeEveryOutstanding(this.deps, { orgId, deviceId, pushToken: null, requestId, workId: `deletions-sweep:${sweepId}:device:${orgId}:${deviceId}` });
      if (done > 0) this.options.logger.info({ orgId, deviceId, revoked: done }, 'revoked the outstanding oneshots of a device the directory no longer has');
      revoked += done;
    }
    for (const orgId of organizations) {
      for (const formId of await this.deps.store.formsWithOutstanding(orgId)) {
        if (this.stopped) return revoked;
        if (await formExists(this.deps.directory, orgId, formId, requestId)) continue;
        const done = await revokeOutstandingOfForm(this.deps, { orgId, formId, requestId, workId: `deletions-sweep:${sweepId}:form:${orgId}:${formId}` });
        if (done > 0) this.options.logger.info({ orgId, formId, revoked: done }, 'revoked the outstanding oneshots of a form the directory no longer has');
        revoked += done;
      }
    }
    return revoked;
  }
}
