import type { BadgeDevice } from '../domain/badge-device';
import type { OneshotState } from '../domain/oneshot-transition';
import type { DeviceSendGuard } from '../sender/device-send-guard';

export type { BadgeDevice } from '../domain/badge-device';
export type { OneshotState } from '../domain/oneshot-transition';

/** A device's badge right after a change, and whether that oneshot counts in it. */
export interface BadgeChange {
  badge: number;
  /** False when the oneshot has ended (now or earlier): no alert should announce it. */
  outstanding: boolean;
  /**
   * True when this change took the oneshot's announcement: asked for, the oneshot
   * outstanding, and not announced before (or the announcement given back since).
   */
  announce: boolean;
}

export interface BadgeStoreOptions {
  /**
   * How long an ended oneshot is remembered (its tombstone), so that a `created` or
   * `updated` arriving after its `completed` or `revoked` is not counted; also how long an
   * announcement is remembered. Default 7 days.
   */
  tombstoneTtlMs?: number;
  /** The clock, in epoch milliseconds (tests move it). */
  now?: () => number;
}

export const defaultTombstoneTtlMs = 7 * 24 * 60 * 60 * 1000;

/**
 * The notifier's badge counts: per device, the set of its outstanding oneshot ids plus
 * tombstones of the ended ones. Every adapter passes `test/store/badge-store.contract.ts`:
 *
 * - `record(…, 'outstanding')` adds the oneshot unless it has a tombstone;
 *   `record(…, 'ended')` removes it and leaves a tombstone. Each is one atomic step.
 * - Recording the same thing twice changes nothing (duplicates, redeliveries), and the
 *   order of a oneshot's events does not matter within the tombstone TTL: an ended oneshot
 *   never counts again, whatever arrives after.
 * - A tombstone is forgotten once it is older than the TTL.
 * - The badge is the number of outstanding oneshots; devices and organizations never mix.
 * - A oneshot is announced once: `record(…, 'outstanding', true)` answers `announce: true`
 *   to one call only (in the same atomic step as the badge change), until the announcement
 *   is given back (`releaseAnnouncement`), forgotten after the TTL, or the oneshot ends.
 */
export interface BadgeStore {
  /**
   * Applies one oneshot event to its device's badge; returns the badge after it. With
   * `announce`, also takes the oneshot's announcement if it is outstanding and nobody has.
   */
  record(device: BadgeDevice, oneshotId: number, state: OneshotState, announce?: boolean): Promise<BadgeChange>;
  /** Gives back an announcement taken by `record`, so that the next `record` asking for it gets it (its send is retried). */
  releaseAnnouncement(device: BadgeDevice, oneshotId: number): Promise<void>;
  /** The device's badge (0 for a device never seen). */
  badge(device: BadgeDevice): Promise<number>;
  /**
   * Send rights, for stores shared by replicas (Redis). Without it (SQLite: one process
   * owns the badges) the dispatcher alone keeps a device's notifications in order.
   */
  sendGuard?(): DeviceSendGuard;
  /** Readiness: resolves when the store answers. */
  ping(): Promise<void>;
  /** Closes the connection; calling it again does nothing. */
  close(): Promise<void>;
}
