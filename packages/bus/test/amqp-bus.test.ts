import type { Socket } from 'node:net';
import { createEnvelope } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import type { Channel, ChannelModel } from 'amqplib';
import { AmqpBus, type AmqpBusOptions } from '../src/amqp-bus';
import { topologyFor } from '../src/amqp/topology';
import type { CommandHandler, EventHandler } from '../src/port';
import {
  brokerUrl,
  closeConnectionOnBroker,
  describeWithBroker as describeWithBrokerFor,
  deleteExchanges,
  deleteQueues,
  hasRabbitmqctl,
  queuesOf,
  withOwnChannel,
} from './broker-admin';
import { describeBusMetricsContract } from './bus-metrics.contract';
import { describeBusTracingContract } from './bus-tracing.contract';
import { contractBusOptions, describeBusContract } from './bus.contract';
import { describeFairServiceContract } from './fair-service.contract';
import { gate, uniqueName, waitFor } from '@formcast/testing';

const url = brokerUrl;
const describeWithBroker = describeWithBrokerFor('AmqpBus');
const itWithRabbitmqctl = hasRabbitmqctl() ? it : it.skip;

const logger = createLogger({ level: 'silent' });
const topology = topologyFor();
const queuesToDelete = new Set<string>();

/** Remembers every service it serves, so their queues are deleted after the run. */
class QueueRecordingAmqpBus extends AmqpBus {
  override handleCommand(service: string, type: string, handler: CommandHandler): void {
    queuesOf(service).forEach((queue) => queuesToDelete.add(queue));
    super.handleCommand(service, type, handler);
  }

  override subscribe(service: string, type: string, handler: EventHandler): void {
    queuesOf(service).forEach((queue) => queuesToDelete.add(queue));
    super.subscribe(service, type, handler);
  }
}

/** The parts of the bus these tests break on purpose. */
interface BusInternals {
  connection: { current: ChannelModel | null };
  requester: { channel: { current: Channel | null } };
  publisher: { channel: { current: Channel | null } };
  commandServers: Map<string, { channel: { current: Channel | null } }>;
}
const internalsOf = (bus: AmqpBus) => bus as unknown as BusInternals;

function newBus(options: Partial<AmqpBusOptions> = {}): AmqpBus {
  return new QueueRecordingAmqpBus({ url, logger, ...contractBusOptions, ...options });
}

describe('AmqpBus without a broker', () => {
  it('fails start with unavailable once its connection attempts are used up', async () => {
    const bus = new AmqpBus({ url: 'amqp://guest:guest@127.0.0.1:1', logger, connectRetries: 1 });

    await expect(bus.start()).rejects.toMatchObject({ code: 'unavailable' });
    expect(bus.isReady()).toBe(false);
    await bus.close();
  });
});

describeWithBroker('AmqpBus', () => {
  afterAll(async () => {
    await deleteQueues(url, queuesToDelete);
  });

  describeBusContract('AmqpBus', async (overrides = {}) => newBus(overrides));
  describeFairServiceContract('AmqpBus', async (options) => newBus({ ...options, prefetch: 32, commandPrefetch: 64 }));
  // Without look-ahead the backlog is passed only by sending its events to the back of the queue.
  describeFairServiceContract('AmqpBus without look-ahead', async (options) => newBus({ ...options, prefetch: 32, commandPrefetch: 64, eventLookAhead: 0 }));

  describe('fair service look-ahead', () => {
    const opened: AmqpBus[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    it("handles one organization's backlog within the look-ahead in the order published: none is sent to the back", async () => {
      const service = uniqueName('lookahead');
      const type = uniqueName('happened');
      const started: string[] = [];
      const bus = newBus({ prefetch: 8, eventsPerOrganization: 2, eventLookAhead: 200 });
      opened.push(bus);
      bus.subscribe(service, type, async (event) => {
        started.push(event.id);
        await new Promise((resolve) => setTimeout(resolve, 2));
      });
      await bus.start();
      const backlog = Array.from({ length: 150 }, () => createEnvelope(type, {}, { orgId: 1 }));
      await Promise.all(backlog.map((event) => bus.publish(event)));

      await waitFor(() => started.length === backlog.length, { description: 'the whole backlog', timeoutMs: 20_000 });
      expect(started).toEqual(backlog.map((event) => event.id));
    });

    it('runs at most `prefetch` handlers of all organizations at once while more wait in the look-ahead', async () => {
      const service = uniqueName('lookahead');
      const type = uniqueName('happened');
      const release = gate();
      let running = 0;
      let most = 0;
      let handled = 0;
      const bus = newBus({ prefetch: 4, eventsPerOrganization: 2, eventLookAhead: 100 });
      opened.push(bus);
      bus.subscribe(service, type, async () => {
        running += 1;
        most = Math.max(most, running);
        await release.opened;
        running -= 1;
        handled += 1;
      });
      await bus.start();
      const events = Array.from({ length: 30 }, (_, i) => createEnvelope(type, {}, { orgId: 1 + (i % 10) }));
      await Promise.all(events.map((event) => bus.publish(event)));

      try {
        await waitFor(() => running >= 4, { description: 'four handlers under way' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(running).toBe(4);
      } finally {
        release.open();
      }
      await waitFor(() => handled === events.length, { description: 'every event' });
      expect(most).toBe(4);
    });
  });
  describeBusMetricsContract('AmqpBus', async () => newBus());
  describeBusTracingContract('AmqpBus', async () => newBus());

  describe('against a real broker', () => {
    const opened: AmqpBus[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    /** A started bus serving `echo` and subscribed to `happened` as `service`. */
    async function echoingBus(options: Partial<AmqpBusOptions> = {}) {
      const names = { service: uniqueName('svc'), echo: uniqueName('echo'), happened: uniqueName('happened') };
      const received: string[] = [];
      const bus = newBus(options);
      opened.push(bus);
      bus.handleCommand(names.service, names.echo, async (command) => command.payload);
      bus.subscribe(names.service, names.happened, async (event) => void received.push(event.id));
      await bus.start();
      /** Both commands and events go through (again). */
      const works = async () => {
        await expect(bus.request(createEnvelope(names.echo, 'ping'))).resolves.toBe('ping');
        const event = createEnvelope(names.happened, {});
        await bus.publish(event);
        await waitFor(() => received.includes(event.id), { description: 'the event' });
      };
      return { bus, names, works };
    }

    itWithRabbitmqctl('fails in-flight requests and resumes commands and events after the broker closes the connection', async () => {
      const connectionName = uniqueName('formcast-bus-test');
      const { bus, names, works } = await echoingBus({ connectionName });
      const stuck = uniqueName('stuck');
      const stuckMayFinish = gate();
      let stuckCalls = 0;
      bus.handleCommand(names.service, stuck, async () => {
        stuckCalls += 1;
        await stuckMayFinish.opened;
        return 'never seen';
      });
      try {
        await works();
        let failedAt = 0;
        const inFlight = bus.request(createEnvelope(stuck, {}), { timeoutMs: 20_000 }).catch((e: unknown) => {
          failedAt = Date.now();
          return e;
        });
        await waitFor(() => stuckCalls === 1, { description: 'the stuck handler' });

        // rabbitmqctl starts an Erlang VM of its own (seconds on a loaded machine): the request
        // must fail within 5 s of the broker having closed the connection, not of the call.
        await closeConnectionOnBroker(connectionName);
        const closedAt = Date.now();

        expect(await inFlight).toMatchObject({ code: 'unavailable' });
        expect(failedAt - closedAt).toBeLessThan(5000);
        await waitFor(() => bus.isReady(), { timeoutMs: 10_000, description: 'reconnection' });
        await works();
      } finally {
        stuckMayFinish.open();
      }
    });

    it('reconnects after its socket fails without a goodbye from the broker', async () => {
      const { bus, works } = await echoingBus();
      const before = internalsOf(bus).connection.current!;

      // What a reset by the network looks like to the client.
      (before as unknown as { connection: { stream: Socket } }).connection.stream.destroy(new Error('read ECONNRESET'));

      await waitFor(
        () => {
          const now = internalsOf(bus).connection.current;
          return now !== null && now !== before && bus.isReady();
        },
        { timeoutMs: 10_000, description: 'a new connection' },
      );
      await works();
    });

    it('survives channel errors on every kind of channel and keeps working', async () => {
      const { bus, names, works } = await echoingBus();
      const internals = internalsOf(bus);
      const broken = [
        internals.requester.channel.current!,
        internals.publisher.channel.current!,
        internals.commandServers.get(names.service)!.channel.current!,
      ];

      for (const channel of broken) {
        // A passive declare of a missing queue: the broker closes the channel with 404.
        await expect(channel.checkQueue(uniqueName('formcast.missing'))).rejects.toThrow(/NOT_FOUND/);
      }

      await waitFor(
        () =>
          bus.isReady() &&
          internals.requester.channel.current !== broken[0] &&
          internals.publisher.channel.current !== broken[1] &&
          internals.commandServers.get(names.service)!.channel.current !== broken[2],
        { description: 'the channels to reopen' },
      );
      await works();
    });

    it('re-declares its command queue when the queue is deleted under it', async () => {
      const { bus, names } = await echoingBus();

      await withOwnChannel(url, (channel) => channel.deleteQueue(topology.commandQueue(names.service)));

      await waitFor(
        () => bus.request(createEnvelope(names.echo, 'back')).then((value) => value === 'back', () => false),
        { description: 'the command queue to come back' },
      );
    });

    it('rejects publish when the broker refuses the event instead of confirming it', async () => {
      const { bus } = await echoingBus();
      const type = uniqueName('refused');
      const fullQueue = uniqueName('formcast.test.full');
      queuesToDelete.add(fullQueue);
      await withOwnChannel(url, async (channel) => {
        await channel.assertQueue(fullQueue, { maxLength: 0, overflow: 'reject-publish' });
        await channel.bindQueue(fullQueue, topology.eventExchange, type);
      });

      await expect(bus.publish(createEnvelope(type, {}))).rejects.toMatchObject({ code: 'unavailable' });
    });

    it('dead-letters a message that is not an envelope without calling the handler', async () => {
      const { bus, names } = await echoingBus();
      const handled: string[] = [];
      const type = uniqueName('garbled');
      bus.subscribe(names.service, type, async (event) => void handled.push(event.id));
      await bus.publish(createEnvelope(uniqueName('barrier'), {})); // waits for the binding

      await withOwnChannel(url, async (channel) => {
        channel.publish(topology.eventExchange, type, Buffer.from('{"not":"an envelope"}'));
      });
      await waitFor(
        () => withOwnChannel(url, async (channel) => (await channel.checkQueue(topology.deadLetterQueue(names.service))).messageCount === 1),
        { description: 'the dead letter' },
      );

      expect(handled).toEqual([]);
      expect(await bus.deadLetters(names.service)).toEqual([]);
    });

    it('keeps a dead letter whose replay cannot be sent, in its place among the others', async () => {
      const { bus } = await echoingBus();
      const service = uniqueName('svc');
      const deadLetterQueue = topology.deadLetterQueue(service);
      queuesOf(service).forEach((queue) => queuesToDelete.add(queue));
      const letters = [1, 2, 3].map((n) => createEnvelope(uniqueName('lost'), { n }));
      // A dead-letter queue whose event queue is gone: the broker would drop a replay unrouted.
      await withOwnChannel(url, async (channel) => {
        await channel.assertQueue(deadLetterQueue, { durable: true });
        for (const letter of letters) channel.sendToQueue(deadLetterQueue, Buffer.from(JSON.stringify(letter)), { contentType: 'application/json' });
      });
      await waitFor(async () => (await bus.deadLetterCount(service)) === 3, { description: 'the dead letters' });

      await expect(bus.replayDeadLetter(service, letters[1]!.id)).rejects.toMatchObject({ code: 'unavailable' });

      expect(await bus.deadLetters(service)).toEqual(letters);
    });

    it('sends an attachment as the message content, untouched, and refuses a large envelope beside one', async () => {
      const { bus, names } = await echoingBus();
      const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
      const withAttachment = createEnvelope(names.echo, { big: 'x'.repeat(70 * 1024) }, {}, bytes);

      await expect(bus.request(withAttachment)).rejects.toMatchObject({ code: 'too_large' });
      await expect(bus.request(createEnvelope(names.echo, { small: true }, {}, bytes))).resolves.toEqual({ small: true });
    });

    it('refuses a message over maxMessageBytes with too_large, and keeps working', async () => {
      const { bus, names, works } = await echoingBus({ maxMessageBytes: 1024 * 1024 });

      await expect(bus.request(createEnvelope(names.echo, {}, {}, Buffer.alloc(1024 * 1024 + 1)))).rejects.toMatchObject({ code: 'too_large' });
      await expect(bus.publish(createEnvelope(names.happened, { text: 'x'.repeat(1024 * 1024) }))).rejects.toMatchObject({ code: 'too_large' });
      await works();
    });

    it('keeps buses with different topology prefixes apart', async () => {
      const prefixes = [uniqueName('bus-test-a'), uniqueName('bus-test-b')];
      const service = uniqueName('svc');
      const type = uniqueName('ping');
      const [busA, busB] = prefixes.map((prefix) => newBus({ prefix }));
      opened.push(busA!, busB!);
      busA!.handleCommand(service, type, async () => 'pong from A');
      await Promise.all([busA!.start(), busB!.start()]);
      try {
        await expect(busA!.request(createEnvelope(type, {}))).resolves.toBe('pong from A');
        await expect(busB!.request(createEnvelope(type, {}))).rejects.toMatchObject({ code: 'unavailable' });
      } finally {
        await Promise.all([busA!.close(), busB!.close()]);
        for (const prefix of prefixes) {
          await deleteQueues(url, queuesOf(service, topologyFor(prefix)));
          await deleteExchanges(url, topologyFor(prefix));
        }
      }
    });

    it('does not execute a command whose caller gave up before any replica took it', async () => {
      const service = uniqueName('svc');
      const type = uniqueName('expiring');
      const executed: string[] = [];
      const handler: CommandHandler = async (command) => {
        executed.push(command.id);
        return 'done';
      };
      const firstReplica = newBus();
      firstReplica.handleCommand(service, type, handler);
      await firstReplica.start();
      await firstReplica.close(); // the queue stays, bound, with nobody consuming
      const caller = newBus();
      opened.push(caller);
      await caller.start();

      const abandoned = createEnvelope(type, 'abandoned');
      await expect(caller.request(abandoned, { timeoutMs: 150 })).rejects.toMatchObject({ code: 'timeout' });
      const laterReplica = newBus();
      opened.push(laterReplica);
      laterReplica.handleCommand(service, type, handler);
      await laterReplica.start();
      const fresh = createEnvelope(type, 'fresh');

      await expect(caller.request(fresh)).resolves.toBe('done');
      expect(executed).toEqual([fresh.id]);
    });
  });
});
