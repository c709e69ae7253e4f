import { registerServiceHandlers, type Bus } from '@formcast/bus';
import { oneshotEventPayload, pushEvents } from '@formcast/contracts';
import type { ServiceStarter } from '@formcast/platform';

/**
 * A bus peer of a test's own that hears every `push.oneshot.created` the push service
 * publishes, on an event queue of its own (`service`), beside the notifier's. It tells a
 * release (a `created` written once, under one envelope id) from the outbox sending the same
 * event again (at least once: the same envelope id, heard twice).
 */
export class CreatedEventTap {
  /** Per oneshot id, every copy heard, in order: its envelope id and when (ms since the epoch). */
  private readonly heard = new Map<number, Array<{ envelopeId: string; at: number }>>();

  constructor(readonly service = 'created-event-tap') {}

  /** Start it as a peer of the system (`peers` of startDistributed). */
  readonly starter: ServiceStarter<Bus> = async ({ bus }) => {
    registerServiceHandlers(bus, this.service, this, {
      events: {
        [pushEvents.oneshotCreated]: (tap) => async (event) => {
          const { oneshotId } = oneshotEventPayload.parse(event.payload);
          tap.heard.set(oneshotId, [...(tap.heard.get(oneshotId) ?? []), { envelopeId: event.id, at: Date.now() }]);
        },
      },
    });
    return { name: this.service, ping: async () => undefined, stop: async () => undefined };
  };

  /** Copies heard of the oneshot's `created` (0 if none). */
  copiesOf(oneshotId: number): number {
    return this.heard.get(oneshotId)?.length ?? 0;
  }

  /** How many `created` events were written for the oneshot: its distinct envelope ids. */
  writtenFor(oneshotId: number): number {
    return new Set(this.heard.get(oneshotId)?.map((copy) => copy.envelopeId)).size;
  }

  /** When each copy was heard, in ms after the first (for a failure message). */
  copyTimes(oneshotId: number): number[] {
    const copies = this.heard.get(oneshotId) ?? [];
    return copies.map((copy) => copy.at - copies[0]!.at);
  }
}
