import { createLogger } from '@formcast/platform';
import { AmqpBus } from '../src/amqp-bus';
import { createBus } from '../src/create-bus';
import { InProcessBus } from '../src/in-process-bus';

const logger = createLogger({ level: 'silent' });

describe('createBus', () => {
  it('picks the in-process bus when no AMQP URL is given', () => {
    expect(createBus({ logger })).toBeInstanceOf(InProcessBus);
    expect(createBus({ logger, amqpUrl: '' })).toBeInstanceOf(InProcessBus);
  });

  it('picks the AMQP bus when an AMQP URL is given, without connecting before start', () => {
    const bus = createBus({ logger, amqpUrl: 'amqp://guest:guest@127.0.0.1:1' });

    expect(bus).toBeInstanceOf(AmqpBus);
    expect(bus.isReady()).toBe(false);
  });
});
