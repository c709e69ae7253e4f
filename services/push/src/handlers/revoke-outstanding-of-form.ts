import { pushEvents } from '@formcast/contracts';
import { devicePushToken } from '../directory-cache/device-push-token';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshots } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

export interface OutstandingOfForm {
  orgId: number;
  formId: number;
  requestId: string;
  /** Names the work: each device's transaction is recorded under `<id>:<device id>`. */
  workId: string;
}

/**
 * Every outstanding oneshot of a deleted form revoked, device by device, one transaction each
 * (a device's outstanding ones are bounded by PUSH_MAX_OUTSTANDING_PER_DEVICE), so the same
 * work again revokes nothing more. The revoked events carry each device's push token, so its
 * badge comes down. Resolves with how many it revoked.
 */
export async function revokeOutstandingOfForm(
  { store, directory, eventsWritten }: Pick<PushDeps, 'store' | 'directory' | 'eventsWritten'>,
  { orgId, formId, requestId, workId }: OutstandingOfForm,
): Promise<number> {
  let revoked = 0;
  for (const deviceId of await store.devicesWithOutstandingOfForm(orgId, formId)) {
    const pushToken = await devicePushToken(directory, orgId, deviceId, requestId);
    const now = new Date().toISOString();
    const done = await tracedStoreWrite('revoke-form', (carryTrace) =>
      store.changeOutstanding(
        orgId,
        deviceId,
        (outstanding) => revokedOneshots(outstanding.filter((oneshot) => oneshot.formId === formId), deviceId, now),
        carryTrace(oneshotEvent(pushEvents.oneshotRevoked, pushToken, requestId)),
        `${workId}:${deviceId}`,
      ),
    );
    eventsWritten();
    revoked += done.length;
  }
  return revoked;
}
