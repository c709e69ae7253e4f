import type { AuthenticatedDevice } from '@formcast/contracts';
import { ExpiringCache } from '@formcast/platform';

/**
 * Device secret hash → the approved device it authenticates, for a few seconds, so a device's
 * stream of submissions costs one authentication round trip to the directory, not one each
 * (issue 24: the directory's 218 µs a submission in S6 were this look-up). Only successes
 * are kept: a pending device is asked about again, and approving it takes effect at once.
 * What ends a secret is its device's deletion: the gateway that sent the delete forgets the
 * device as the directory answers; the others on hearing `directory.device.changed`, and,
 * as with TokenCache, with several gateway replicas one that does not hear it may accept the
 * secret for up to `ttlMs` more.
 */
export class DeviceSecretCache {
  private readonly devices: ExpiringCache<string, AuthenticatedDevice>;
  /** Counts forgets: an answer asked for before one is not kept (it may predate the deletion). */
  private forgets = 0;

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.devices = new ExpiringCache(options);
  }

  get(secretHash: string): AuthenticatedDevice | undefined {
    return this.devices.get(secretHash);
  }

  /** Where a look-up starts: give it back to `set`. */
  get mark(): number {
    return this.forgets;
  }

  /** Keeps the directory's answer, unless a device was forgotten since the look-up began (`mark`). */
  set(secretHash: string, device: AuthenticatedDevice, mark: number): void {
    if (mark === this.forgets) this.devices.set(secretHash, device);
  }

  forgetDevice(orgId: number, deviceId: number): void {
    this.forgets += 1;
    this.devices.deleteWhere((known) => known.orgId === orgId && known.deviceId === deviceId);
  }
}
