import { createEnvelope, type Envelope } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { InProcessBroker } from '../src/in-process/in-process-broker';
import { InProcessBus } from '../src/in-process-bus';
import { describeBusMetricsContract } from './bus-metrics.contract';
import { describeBusTracingContract } from './bus-tracing.contract';
import { contractBusOptions, describeBusContract } from './bus.contract';
import { describeFairServiceContract } from './fair-service.contract';
import { uniqueName, waitFor } from '@formcast/testing';

const logger = createLogger({ level: 'silent' });
const broker = new InProcessBroker();

describeBusContract(
  'InProcessBus',
  async (overrides = {}) => new InProcessBus({ broker, logger, ...contractBusOptions, ...overrides }),
);
describeFairServiceContract('InProcessBus', async (options) => new InProcessBus({ broker, logger, ...contractBusOptions, ...options }));
describeBusMetricsContract('InProcessBus', async () => new InProcessBus({ broker, logger, ...contractBusOptions }));
describeBusTracingContract('InProcessBus', async () => new InProcessBus({ broker, logger, ...contractBusOptions }), 'in process');

describe('InProcessBus', () => {
  it('runs an event handler only after publish has resolved', async () => {
    const bus = new InProcessBus({ logger, ...contractBusOptions });
    const type = uniqueName('happened');
    let handled = false;
    bus.subscribe(uniqueName('svc'), type, async () => {
      handled = true;
    });
    await bus.start();

    await bus.publish(createEnvelope(type, {}));
    const handledWhenPublishResolved = handled;
    await waitFor(() => handled);
    await bus.close();

    expect(handledWhenPublishResolved).toBe(false);
  });

  it('runs a command handler after request() returns, in the same turn of the event loop (a busy turn is what a request waits for)', async () => {
    const bus = new InProcessBus({ logger, ...contractBusOptions });
    const type = uniqueName('do');
    const seen: string[] = [];
    bus.handleCommand(uniqueName('svc'), type, async () => {
      seen.push('handler');
      return 'done';
    });
    await bus.start();
    try {
      const turnEnded = new Promise<void>((resolve) =>
        setImmediate(() => {
          seen.push('next turn');
          resolve();
        }),
      );
      const reply = bus.request(createEnvelope(type, {}, { orgId: 1, requestId: 'r' }));
      seen.push('request returned');
      expect(await reply).toBe('done');
      await turnEnded;
      expect(seen).toEqual(['request returned', 'handler', 'next turn']);
    } finally {
      await bus.close();
    }
  });

  it('hands a handler the command deep-frozen, the sender’s objects frozen with it: a handler that changes it throws', async () => {
    const bus = new InProcessBus({ logger, ...contractBusOptions });
    const type = uniqueName('mutate');
    let change: unknown;
    bus.handleCommand(uniqueName('svc'), type, async (command) => {
      change = catching(() => (command.payload as { items: string[] }).items.push('added'));
      return { list: ['answer'] };
    });
    await bus.start();
    const payload = { items: ['original'], nested: { deep: [{ deeper: 1 }] } };

    const replied = await bus.request<{ list: string[] }>(createEnvelope(type, payload));
    await bus.close();

    expect(change).toBeInstanceOf(TypeError);
    expect(Object.isFrozen(payload.nested.deep[0])).toBe(true);
    expect(catching(() => replied.list.push('more'))).toBeInstanceOf(TypeError);
  });

  it('hands every subscribing service the same frozen event, and a copy through JSON of a payload JSON would change', async () => {
    const bus = new InProcessBus({ logger, ...contractBusOptions });
    const type = uniqueName('happened');
    const received: Envelope[] = [];
    for (const service of [uniqueName('first'), uniqueName('second')]) {
      bus.subscribe(service, type, async (event) => {
        received.push(event);
      });
    }
    await bus.start();
    const plain = { answers: [{ q: 'a' }] };
    const dated = { at: new Date(0) };

    await bus.publish(createEnvelope(type, plain));
    await bus.publish(createEnvelope(type, dated));
    await waitFor(() => received.length === 4);
    await bus.close();

    const [first, second] = received.filter((event) => event.payload === plain);
    expect(first).toBe(second);
    expect(Object.isFrozen(first) && Object.isFrozen(plain.answers[0])).toBe(true);
    const copies = received.filter((event) => event.payload !== plain).map((event) => event.payload);
    expect(copies).toEqual([{ at: '1970-01-01T00:00:00.000Z' }, { at: '1970-01-01T00:00:00.000Z' }]);
    expect(Object.isFrozen(copies[0])).toBe(true);
    expect(Object.isFrozen(dated)).toBe(false);
  });

  it('keeps buses made without a shared broker apart', async () => {
    const type = uniqueName('ping');
    const server = new InProcessBus({ logger });
    const caller = new InProcessBus({ logger });
    server.handleCommand(uniqueName('svc'), type, async () => 'pong');
    await Promise.all([server.start(), caller.start()]);

    await expect(server.request(createEnvelope(type, {}))).resolves.toBe('pong');
    await expect(caller.request(createEnvelope(type, {}))).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.all([server.close(), caller.close()]);
  });
});

function catching(act: () => unknown): unknown {
  try {
    act();
    return undefined;
  } catch (error) {
    return error;
  }
}
