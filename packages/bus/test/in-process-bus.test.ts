import { createEnvelope } from '@formcast/contracts';
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
