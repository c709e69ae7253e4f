import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@formcast/bus';
import { pushEvents, type Envelope } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { waitFor } from '@formcast/testing';
import { oneshotEvent } from '../src/domain/oneshot-events';
import { newOneshot } from '../src/domain/oneshot-lifecycle';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { SqlitePushStore } from '../src/store/sqlite-push-store';
import { oneshotRequestFor } from './support/oneshot-fixtures';

/**
 * Two push replicas on one store each run an outbox relay over the same outbox. What is
 * guaranteed: every event goes out, none is lost, and the outbox empties. What is not:
 * once only. Both relays may read the same unpublished rows before either removes them
 * (the scheduled release drill saw it in about one run in two, copies 1 to 4 ms apart),
 * as a relay killed between the broker's confirm and the removal sends its batch again
 * after the restart. Copies are the same envelope, so consumers drop them by id; the
 * notifier announces a oneshot once whatever the copies (services/notifier/test/handlers,
 * test/notifier-events.test.ts, test/scheduled-release-drills.test.ts).
 */

const logger = createLogger({ level: 'silent' });
const now = new Date().toISOString();

/** A bus whose publishes wait until `opensAfter` of them have been asked for, then all go. */
class GatedBus extends InProcessBus {
  private asked = 0;
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly opensAfter: number) {
    super({ logger });
  }

  override async publish(event: Envelope): Promise<void> {
    if (++this.asked >= this.opensAfter) this.open();
    await this.opened;
    return super.publish(event);
  }
}

/** Two stores on one database file, a relay on each, and what a subscriber heard. */
async function twoReplicas(bus: InProcessBus) {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-outbox-replicas-'));
  const heard: string[] = [];
  bus.subscribe('listener', pushEvents.oneshotCreated, async (event) => {
    heard.push(event.id);
  });
  await bus.start();
  const stores = [new SqlitePushStore(join(dir, 'push.sqlite')), new SqlitePushStore(join(dir, 'push.sqlite'))];
  const relays = stores.map((store) => new OutboxRelay(store, bus, logger, { pollMs: 60_000 }));
  let written = 0;
  return {
    stores,
    relays,
    heard,
    /** Creates a oneshot through replica `replica`'s store; returns its event's envelope id. */
    create: async (replica: number): Promise<string> => {
      written += 1;
      const eventOf = oneshotEvent(pushEvents.oneshotCreated, `fcm-${written}`, `req-${written}`);
      let id: string | undefined;
      const capturingId: typeof eventOf = (oneshot) => {
        const event = eventOf(oneshot);
        id = event?.id;
        return event;
      };
      await stores[replica]!.create(newOneshot(oneshotRequestFor(written), now), capturingId, `command-${written}`);
      if (!id) throw new Error('create wrote no event');
      return id;
    },
    outboxEmpty: async () => (await stores[0]!.unpublishedEvents(1)).length === 0,
    close: async () => {
      await Promise.all(relays.map((relay) => relay.stop()));
      await bus.close();
      for (const store of stores) await store.close();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

it('two relays over one outbox (two replicas on one database) send every event, and empty it', async () => {
  const system = await twoReplicas(new InProcessBus({ logger }));
  try {
    for (const relay of system.relays) relay.start();
    const written: string[] = [];
    for (let round = 0; round < 20; round++) {
      // Each replica writes and wakes its own relay, as a create through it would.
      for (const replica of [0, 1, 0]) {
        written.push(await system.create(replica));
        system.relays[replica]!.wake();
      }
    }
    await waitFor(system.outboxEmpty, { timeoutMs: 10_000, description: 'the outbox to empty' });
    await waitFor(() => written.every((id) => system.heard.includes(id)), { timeoutMs: 5000, description: 'every event heard' });
    expect(new Set(system.heard)).toEqual(new Set(written));
  } finally {
    await system.close();
  }
});

it('sends an event both relays read before either removed it twice, as one envelope (at-least-once: consumers drop the copy by id)', async () => {
  const system = await twoReplicas(new GatedBus(2));
  try {
    const id = await system.create(0);
    // Neither publish completes before both relays have read the row and asked to publish it.
    for (const relay of system.relays) relay.start();
    await waitFor(system.outboxEmpty, { timeoutMs: 5000, description: 'the outbox to empty' });
    await waitFor(() => system.heard.length === 2, { timeoutMs: 5000, description: 'both copies heard' });
    expect(system.heard).toEqual([id, id]);
  } finally {
    await system.close();
  }
});
