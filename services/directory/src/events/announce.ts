import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryEvents } from '@formcast/contracts';
import type { Logger } from '@formcast/platform';
import type { Device, Form } from '../domain/records';

/** Where announcements go; without a bus, nothing is announced. */
export interface Announcer {
  bus?: Bus;
  logger?: Logger;
}

/**
 * Tells other services that something of an organization changed, after the change is
 * stored. Best effort, by design: most only invalidate caches, which also expire on their
 * own (see docs/architecture.md), so a lost announcement costs staleness, never data. The
 * two with an effect on data (form.deleted, device.deleted) have a backstop: delivery's
 * deleted-forms sweep finds a deleted form within DELIVERY_SWEEP_INTERVAL_MS, push's
 * deletions sweep a deleted device or form within PUSH_DELETIONS_SWEEP_INTERVAL_MS.
 */
async function announce<P extends { orgId: number }>(
  { bus, logger }: Announcer,
  type: string,
  payload: P,
  requestId: string | undefined,
): Promise<void> {
  if (!bus) return;
  try {
    await bus.publish(createEnvelope(type, payload, { orgId: payload.orgId, requestId }));
  } catch (err) {
    logger?.warn({ err, type }, 'could not announce a directory change');
  }
}

export const announceDeviceChanged = (to: Announcer, { orgId, id, identifier }: Device, requestId?: string) =>
  announce(to, directoryEvents.deviceChanged, { orgId, deviceId: id, identifier }, requestId);

export const announceFormChanged = (to: Announcer, { orgId, id, namespace }: Form, requestId?: string) =>
  announce(to, directoryEvents.formChanged, { orgId, formId: id, namespace }, requestId);

export const announceTokenRevoked = (to: Announcer, orgId: number, tokenId: number, requestId?: string) =>
  announce(to, directoryEvents.tokenRevoked, { orgId, tokenId }, requestId);

/** A device was deleted: push withdraws what was still outstanding on it. */
export const announceDeviceDeleted = (to: Announcer, { orgId, id }: Device, requestId?: string) =>
  announce(to, directoryEvents.deviceDeleted, { orgId, deviceId: id }, requestId);

/** A form was deleted: what hangs off it elsewhere (delivery's destinations) goes too. */
export const announceFormDeleted = (to: Announcer, { orgId, id }: Form, requestId?: string) =>
  announce(to, directoryEvents.formDeleted, { orgId, formId: id }, requestId);
