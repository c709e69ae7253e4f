import { pushEvents } from '@formcast/contracts';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshots } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

/** Oneshots revoked in one transaction: big enough to be cheap, small enough that no commit holds the store long. */
export const revokeChunkSize = 500;

export interface EveryOutstanding {
  orgId: number;
  deviceId: number;
  /** Where the revoked events tell the notifier to send (null: no notification). */
  pushToken: string | null;
  requestId: string;
  /** Names the work: its chunks are recorded under it, then `<id>#1`, `<id>#2`, ... */
  workId: string;
}

/**
 * Every outstanding oneshot of the device revoked, an event each. In chunks of
 * `revokeChunkSize`, oldest first, each its own transaction recorded under an id of its own:
 * between two the store commits and other organizations' work runs, and the same work again
 * (a command or event delivered again after a kill midway) finds the chunks done as they
 * were and revokes only the rest. A chunk shorter than a full one was the last.
 */
export async function revokeEveryOutstanding(
  { store, eventsWritten, revokeChunk = revokeChunkSize }: Pick<PushDeps, 'store' | 'eventsWritten' | 'revokeChunk'>,
  { orgId, deviceId, pushToken, requestId, workId }: EveryOutstanding,
): Promise<number> {
  let revoked = 0;
  for (let chunk = 0; ; chunk += 1) {
    const now = new Date().toISOString();
    const done = await tracedStoreWrite('revoke-all', (carryTrace) =>
      store.changeOutstanding(
        orgId,
        deviceId,
        (outstanding) => revokedOneshots(outstanding, deviceId, now),
        carryTrace(oneshotEvent(pushEvents.oneshotRevoked, pushToken, requestId)),
        chunk === 0 ? workId : `${workId}#${chunk}`,
        revokeChunk,
      ),
    );
    eventsWritten();
    revoked += done.length;
    if (done.length < revokeChunk) return revoked;
  }
}
