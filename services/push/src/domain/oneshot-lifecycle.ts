import { AppError } from '@formcast/platform';
import type { NewOneshot, Oneshot, OneshotRequest } from './records';

/*
 * The oneshot lifecycle (spec section 3): outstanding from creation until revoked, or
 * completed on its device; an ended oneshot never changes again. A dispatch scheduled for
 * later (`scheduledAt` in the future) is outstanding but unreleased until then: the API
 * lists, updates and revokes it, but its device does not know of it (device side, legacy
 * listings, badge, notification) until its release. Each transition takes the
 * oneshot as the store loaded it (null: unknown, or of another organization) and the time
 * of the change, and returns the record to save, or throws an AppError and nothing is saved.
 */

/** The oneshot a command names, and the device the command acts on. */
export interface OneshotRef {
  oneshotId: number;
  deviceId: number;
}

/** What an update replaces: the payload always, the other fields when given. */
export interface OneshotChange {
  payload: Record<string, unknown>;
  name?: string | undefined;
  description?: string | undefined;
  /** A new time for an unreleased dispatch; refused once it was released (unless the same time). */
  scheduledAt?: string | undefined;
  location?: string | undefined;
  address?: string | undefined;
  geofenceRadius?: number | undefined;
}

function isOutstandingOn(current: Oneshot | null, deviceId: number): current is Oneshot {
  return current !== null && current.deviceId === deviceId && current.state === 'outstanding';
}

/** Whether its device knows of it: released (at creation, or when its scheduled time came). */
export function isReleased(oneshot: Pick<Oneshot, 'releasedAt'>): boolean {
  return oneshot.releasedAt !== null;
}

/** Outstanding, unreleased, and its time has come. */
export function isDue(oneshot: Oneshot, now: string): boolean {
  return oneshot.state === 'outstanding' && !isReleased(oneshot) && oneshot.scheduledAt !== null && oneshot.scheduledAt <= now;
}

/** Times compare as text in the stores: every time kept is `toISOString()`'s UTC form. */
function utc(time: string): string {
  return new Date(time).toISOString();
}

/**
 * A push: the new oneshot, outstanding from `now`; released at once unless scheduled for
 * later (a past time means now).
 */
export function newOneshot(request: OneshotRequest, now: string): NewOneshot {
  const scheduledAt = request.scheduledAt === null ? null : utc(request.scheduledAt);
  const releasedAt = scheduledAt === null || scheduledAt <= now ? now : null;
  return { ...request, scheduledAt, state: 'outstanding', createdAt: now, updatedAt: now, releasedAt };
}

/** The oneshot, when it is outstanding on that device; not_found when unknown, on another device, or ended. */
export function outstandingOn(current: Oneshot | null, ref: OneshotRef): Oneshot {
  if (!isOutstandingOn(current, ref.deviceId)) throw new AppError('not_found', `Oneshot ${ref.oneshotId} is not outstanding on this device`);
  return current;
}

/**
 * What the device side sees of a oneshot: its own outstanding ones. Anything else does not
 * exist for it (it never learns of another device's oneshots).
 */
export function outstandingForDevice(current: Oneshot | null, ref: OneshotRef): Oneshot {
  if (!isOutstandingOn(current, ref.deviceId) || !isReleased(current)) throw new AppError('not_found', `Oneshot ${ref.oneshotId} does not exist`);
  return current;
}

/**
 * An outstanding oneshot with its payload replaced, and its other fields where the change
 * gives them. A new `scheduledAt` reschedules an unreleased dispatch (a past time: the next
 * release takes it); once released it is 400: the device has it already.
 */
export function updatedOneshot(current: Oneshot | null, ref: OneshotRef, change: OneshotChange, now: string): Oneshot {
  const oneshot = outstandingOn(current, ref);
  return {
    ...oneshot,
    payload: change.payload,
    name: change.name ?? oneshot.name,
    description: change.description ?? oneshot.description,
    scheduledAt: rescheduled(oneshot, change.scheduledAt),
    location: change.location ?? oneshot.location,
    address: change.address ?? oneshot.address,
    geofenceRadius: change.geofenceRadius ?? oneshot.geofenceRadius,
    updatedAt: now,
  };
}

function rescheduled(oneshot: Oneshot, scheduledAt: string | undefined): string | null {
  if (scheduledAt === undefined) return oneshot.scheduledAt;
  const time = utc(scheduledAt);
  if (isReleased(oneshot) && time !== oneshot.scheduledAt) {
    throw new AppError('invalid', `scheduled_at: dispatch ${oneshot.id} was delivered to its device already; it can no longer be rescheduled`);
  }
  return time;
}

/** Release: each of those given that is due at `now`, released; the others are left as they are. */
export function releasedOneshots(loaded: Oneshot[], now: string): Oneshot[] {
  return loaded.filter((oneshot) => isDue(oneshot, now)).map((oneshot) => ({ ...oneshot, releasedAt: now }));
}

/** outstanding → revoked. */
export function revokedOneshot(current: Oneshot | null, ref: OneshotRef, now: string): Oneshot {
  return { ...outstandingOn(current, ref), state: 'revoked', updatedAt: now };
}

/** The organization's dispatch, in any state (v3 by id alone); not_found when unknown or of another organization. */
export function existingDispatch(current: Oneshot | null, dispatchId: number): Oneshot {
  if (!current) throw new AppError('not_found', `Dispatch ${dispatchId} does not exist`);
  return current;
}

/** v3 revoke by id alone: the same rule as revoke, on whichever device it is. */
export function revokedDispatch(current: Oneshot | null, dispatchId: number, now: string): Oneshot {
  const dispatch = existingDispatch(current, dispatchId);
  return revokedOneshot(dispatch, { oneshotId: dispatchId, deviceId: dispatch.deviceId }, now);
}

/** destroy_all: each of the device's outstanding oneshots revoked, in the order given. */
export function revokedOneshots(outstanding: Oneshot[], deviceId: number, now: string): Oneshot[] {
  return outstanding.map((oneshot) => revokedOneshot(oneshot, { oneshotId: oneshot.id, deviceId }, now));
}

/** The device's own released oneshot, in any state; anything else does not exist for it. */
export function ownOneshot(current: Oneshot | null, ref: OneshotRef): Oneshot {
  if (!current || current.deviceId !== ref.deviceId || !isReleased(current)) throw new AppError('not_found', `Oneshot ${ref.oneshotId} does not exist`);
  return current;
}

/**
 * The device submits it: outstanding → completed. not_found unless the oneshot is this
 * device's; conflict (409) once it has ended, however it ended.
 */
export function completedOneshot(current: Oneshot | null, ref: OneshotRef, now: string): Oneshot {
  const oneshot = ownOneshot(current, ref);
  if (oneshot.state !== 'outstanding') {
    throw new AppError('conflict', `Oneshot ${ref.oneshotId} is ${oneshot.state}; it can no longer be submitted`);
  }
  return { ...oneshot, state: 'completed', updatedAt: now };
}
