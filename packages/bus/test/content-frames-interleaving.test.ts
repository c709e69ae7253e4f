import { createEnvelope } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { AmqpBus } from '../src/amqp-bus';
import { brokerUrl, describeWithBroker as describeWithBrokerFor } from './broker-admin';

const describeWithBroker = describeWithBrokerFor('content frames of two channels at once');

/**
 * A reply large enough to go out as body frames (over amqplib's 2 KiB single-chunk limit)
 * while the same connection publishes a burst of events on its confirm channel: amqplib's
 * Mux takes one chunk from each channel in turn, so a body frame queued as three chunks
 * (header, content, end) was split by the other channel's frames, and the broker closed the
 * connection with FRAME_ERROR (found by bulk dispatch: 200 created events beside its reply).
 */
describeWithBroker('AmqpBus: large content beside a burst on another channel', () => {
  it('delivers the reply and every event, the connection never broken', async () => {
    const logger = createLogger({ level: 'silent' });
    const prefix = uniqueName('interleave');
    const server = new AmqpBus({ url: brokerUrl, logger, prefix });
    const client = new AmqpBus({ url: brokerUrl, logger, prefix });
    const received = new Set<number>();
    client.subscribe('listener', 'svc.happened', async (event) => {
      received.add((event.payload as { i: number }).i);
    });
    const events = 200;
    const published: Array<Promise<void>> = [];
    server.handleCommand('svc', 'svc.big', async () => {
      // On the next turn, as an outbox relay woken by the write does, while the reply goes out.
      setImmediate(() => {
        for (let i = 0; i < events; i += 1) published.push(server.publish(createEnvelope('svc.happened', { i, pad: 'p'.repeat(500) }, { orgId: 1 })));
      });
      return 'r'.repeat(40_000);
    });
    try {
      await server.start();
      await client.start();
      for (let round = 0; round < 3; round += 1) {
        expect(await client.request(createEnvelope('svc.big', {}, { orgId: 1 }), { timeoutMs: 5000 })).toBe('r'.repeat(40_000));
      }
      await Promise.all(published);
      expect(published).toHaveLength(3 * events);
      await waitFor(() => received.size === events, { timeoutMs: 10_000, description: `the ${events} distinct events to arrive` });
    } finally {
      await client.close();
      await server.close();
      await deleteTestTopology(brokerUrl, prefix, ['svc', 'listener']);
    }
  });
});
