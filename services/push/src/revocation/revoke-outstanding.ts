import { pushEvents } from '@formcast/contracts';
import { devicePushToken } from '../directory-cache/device-push-token';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshots } from '../domain/oneshot-lifecycle';
import type { Oneshot } from '../domain/records';
import type { PushDeps } from '../handlers/deps';
import { tracedStoreWrite } from '../outbox/traced-store-write';

/** Oneshots revoked in one transaction: big enough to be cheap, small enough that no commit holds the store long. */
export const revokeChunkSize = 500;

type RevokeDeps = Pick<PushDeps, 'store' | 'eventsWritten' | 'revokeChunk'>;

/** What one revocation step acts on and tells. */
interface OnDevice {
  orgId: number;
  deviceId: number;
  /** Where the revoked events tell the notifier to send (null: no notification). */
  pushToken: string | null;
  requestId: string;
}

/**
 * One transaction, recorded under `commandId`: the device's outstanding oneshots (the first
 * `limit`, when given) that `which` picks, revoked, an event each. Resolves with how many.
 */
async function revokeOnDevice(
  { store, eventsWritten }: RevokeDeps,
  { orgId, deviceId, pushToken, requestId }: OnDevice,
  step: { span: string; commandId: string; which?: (oneshot: Oneshot) => boolean; limit?: number },
): Promise<number> {
  const now = new Date().toISOString();
  const { which } = step;
  const done = await tracedStoreWrite(step.span, (carryTrace) =>
    store.changeOutstanding(
      orgId,
      deviceId,
      (outstanding) => revokedOneshots(which ? outstanding.filter(which) : outstanding, deviceId, now),
      carryTrace(oneshotEvent(pushEvents.oneshotRevoked, pushToken, requestId)),
      step.commandId,
      step.limit,
    ),
  );
  eventsWritten();
  return done.length;
}

/**
 * Every outstanding oneshot of the device revoked (destroy_all, a deleted device). In chunks
 * of `revokeChunkSize`, oldest first, each its own transaction recorded under an id of its
 * own (`workId`, then `<workId>#1`, `#2`, ...): between two the store commits and other
 * organizations' work runs, and the same work again (a command or event delivered again
 * after a kill midway) finds the chunks done as they were and revokes only the rest. A chunk
 * shorter than a full one was the last.
 */
export async function revokeEveryOutstanding(deps: RevokeDeps, target: OnDevice & { workId: string }): Promise<number> {
  const limit = deps.revokeChunk ?? revokeChunkSize;
  let revoked = 0;
  for (let chunk = 0; ; chunk += 1) {
    const commandId = chunk === 0 ? target.workId : `${target.workId}#${chunk}`;
    const done = await revokeOnDevice(deps, target, { span: 'revoke-all', commandId, limit });
    revoked += done;
    if (done < limit) return revoked;
  }
}

/**
 * Every outstanding oneshot of a deleted form revoked, device by device, one transaction each
 * under `<workId>:<device id>` (a device's outstanding ones are bounded by
 * PUSH_MAX_OUTSTANDING_PER_DEVICE), so the same work again revokes nothing more. The revoked
 * events carry each device's push token, so its badge comes down.
 */
export async function revokeOutstandingOfForm(
  deps: RevokeDeps & Pick<PushDeps, 'directory'>,
  { orgId, formId, requestId, workId }: { orgId: number; formId: number; requestId: string; workId: string },
): Promise<number> {
  let revoked = 0;
  for (const deviceId of await deps.store.devicesWithOutstandingOfForm(orgId, formId)) {
    const pushToken = await devicePushToken(deps.directory, orgId, deviceId, requestId);
    revoked += await revokeOnDevice(deps, { orgId, deviceId, pushToken, requestId }, {
      span: 'revoke-form',
      commandId: `${workId}:${deviceId}`,
      which: (oneshot) => oneshot.formId === formId,
    });
  }
  return revoked;
}
