import type { CommandHandler } from '@formcast/bus';
import { deviceOneshotsPayload, pushEvents } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { oneshotEvent } from '../domain/oneshot-events';
import { revokedOneshots } from '../domain/oneshot-lifecycle';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import type { PushDeps } from './deps';

/** Oneshots revoked in one transaction: big enough to be cheap, small enough that no commit holds the store long. */
export const revokeChunkSize = 500;

/**
 * POST /clients/<device>/oneshots/destroy_all: every outstanding one revoked, an event each.
 * In chunks of `revokeChunkSize`, oldest first, each its own transaction recorded under a
 * command id of its own (the command's, then `<id>#1`, `<id>#2`, ...): between two the store
 * commits and other organizations' work runs, and a delivery of the command again (after a
 * kill midway) finds the chunks done as they were answered and revokes only the rest. A
 * chunk shorter than a full one was the last.
 */
export const revokeAllOneshots =
  ({ store, directory, eventsWritten, revokeChunk = revokeChunkSize }: PushDeps): CommandHandler =>
  async (command) => {
    const { deviceRef } = parsePayload(deviceOneshotsPayload, command.payload);
    const device = await approvedDevice(directory, command, deviceRef);
    const orgId = requireOrgId(command);
    let revoked = 0;
    for (let chunk = 0; ; chunk += 1) {
      const now = new Date().toISOString();
      const done = await tracedStoreWrite('revoke-all', (carryTrace) =>
        store.changeOutstanding(
          orgId,
          device.id,
          (outstanding) => revokedOneshots(outstanding, device.id, now),
          carryTrace(oneshotEvent(pushEvents.oneshotRevoked, device.pushToken, command.requestId)),
          chunk === 0 ? command.id : `${command.id}#${chunk}`,
          revokeChunk,
        ),
      );
      eventsWritten();
      revoked += done.length;
      if (done.length < revokeChunk) return { revoked };
    }
  };
