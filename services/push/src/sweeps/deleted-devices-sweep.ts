import { randomUUID } from 'node:crypto';
import { Sweep, type Logger } from '@formcast/platform';
import type { PushDeps } from '../handlers/deps';
import { revokeEveryOutstanding } from '../handlers/revoke-every-outstanding';
import type { DeviceRef } from '../store';

export interface DeletedDevicesSweepOptions {
  /** Time between two sweeps. */
  intervalMs: number;
  /** Devices read per page of the walk (default 200). */
  pageSize?: number;
  logger: Logger;
}

/**
 * The backstop for `directory.device.deleted`, which the directory announces after its
 * delete commits, best effort: a process killed between the two, or a publish that failed,
 * loses it, and the device's outstanding oneshots would stay for good. Each sweep asks the
 * directory, one device at a time, about every device that has outstanding oneshots, and
 * revokes those of a device it no longer has, as the event would have. A failure other than
 * not_found ends the sweep; the next one starts over. Replicas may sweep at once: the second
 * finds nothing outstanding.
 */
export class DeletedDevicesSweep extends Sweep {
  private readonly pageSize: number;

  constructor(
    private readonly deps: Pick<PushDeps, 'store' | 'eventsWritten' | 'revokeChunk'>,
    private readonly deviceExists: (orgId: number, deviceId: number, requestId: string) => Promise<boolean>,
    private readonly options: DeletedDevicesSweepOptions,
  ) {
    super(options.intervalMs, (error) => options.logger.warn({ err: error }, 'could not check the devices of outstanding oneshots; will try at the next sweep'));
    this.pageSize = options.pageSize ?? 200;
  }

  /** One sweep now (a stop ends it after the device it is on); resolves with how many oneshots it revoked. */
  async sweepOnce(): Promise<number> {
    const sweepId = randomUUID();
    const requestId = `deleted-devices-sweep-${sweepId}`;
    let revoked = 0;
    let after: DeviceRef | undefined;
    while (!this.stopped) {
      const page = await this.deps.store.devicesWithOutstanding(after, this.pageSize);
      if (page.length === 0) break;
      for (const { orgId, deviceId } of page) {
        if (this.stopped) break;
        if (await this.deviceExists(orgId, deviceId, requestId)) continue;
        const done = await revokeEveryOutstanding(this.deps, { orgId, deviceId, pushToken: null, requestId, workId: `deleted-devices-sweep:${sweepId}:${orgId}:${deviceId}` });
        if (done > 0) this.options.logger.info({ orgId, deviceId, revoked: done }, 'revoked the outstanding oneshots of a device the directory no longer has');
        revoked += done;
      }
      after = page[page.length - 1];
    }
    return revoked;
  }
}
