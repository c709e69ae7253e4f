import type { BadgeDevice } from '../domain/badge-device';

/**
 * Send rights per device across notifier replicas. Two replicas sending to one device at
 * once could deliver an older badge after a newer one; with the guard, one replica at a time
 * sends to a device, and it sends the badge as it is when it takes the right, so the last
 * notification a device gets always carries its latest badge.
 */
export interface DeviceSendGuard {
  /**
   * Takes the send right for each device it can. For each device, in order: its current
   * badge when taken (held until `release`, or until it expires should this process die),
   * null when another replica holds it.
   */
  claim(devices: BadgeDevice[]): Promise<Array<number | null>>;
  /** Gives back rights this process holds; others' are left alone. */
  release(devices: BadgeDevice[]): Promise<void>;
}
