import { createEnvelope } from '@formcast/contracts';
import { parseExposition, renderMetrics, sampleValue, type Sample } from '@formcast/metrics';
import { AppError } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import type { Bus } from '../src/port';
import { contractBusOptions } from './bus.contract';
import { startedBuses } from './started-buses';

async function scrape(): Promise<Sample[]> {
  return parseExposition((await renderMetrics()).body);
}

/**
 * What every Bus adapter records in the process's metrics (packages/metrics). `makeBus` as
 * for the bus contract: a new, unstarted bus built with `contractBusOptions`. Names are
 * unique per test, so each series starts at nothing.
 */
export function describeBusMetricsContract(name: string, makeBus: () => Promise<Bus>): void {
  describe(`${name} (metrics)`, () => {
    const startedBus = startedBuses(() => makeBus());

    it('times command round trips by command name and outcome', async () => {
      const service = uniqueName('svc');
      const found = uniqueName('found');
      const missing = uniqueName('missing');
      const bus = await startedBus((b) => {
        b.handleCommand(service, found, async () => 'here');
        b.handleCommand(service, missing, async () => {
          throw new AppError('not_found', 'no such thing');
        });
      });

      await bus.request(createEnvelope(found, {}));
      await bus.request(createEnvelope(found, {}));
      await expect(bus.request(createEnvelope(missing, {}))).rejects.toMatchObject({ code: 'not_found' });

      const samples = await scrape();
      const count = 'formcast_bus_command_duration_seconds_count';
      expect(sampleValue(samples, count, { command: found, outcome: 'ok' })).toBe(2);
      expect(sampleValue(samples, count, { command: missing, outcome: 'not_found' })).toBe(1);
      expect(sampleValue(samples, count, { command: missing, outcome: 'ok' })).toBe(0);
    });

    it('times event handling by consumer, event and outcome, and counts the retries as redeliveries', async () => {
      const service = uniqueName('svc');
      const type = uniqueName('flaky');
      let attempts = 0;
      const bus = await startedBus((b) =>
        b.subscribe(service, type, async () => {
          attempts += 1;
          if (attempts === 1) throw new AppError('unavailable', 'not yet');
        }),
      );

      await bus.publish(createEnvelope(type, {}));
      await waitFor(() => attempts === 2, { description: 'the second attempt' });
      const labels = { consumer: service, event: type };
      await waitFor(async () => sampleValue(await scrape(), 'formcast_bus_event_duration_seconds_count', { ...labels, outcome: 'ok' }) === 1, {
        description: 'the successful attempt recorded',
      });

      const samples = await scrape();
      expect(sampleValue(samples, 'formcast_bus_event_duration_seconds_count', { ...labels, outcome: 'unavailable' })).toBe(1);
      expect(sampleValue(samples, 'formcast_bus_event_redeliveries_total', labels)).toBe(1);
    });

    it('reads the depth of each consuming service\'s dead-letter queue when scraped, until the bus closes', async () => {
      const service = uniqueName('svc');
      const type = uniqueName('poison');
      const bus = await startedBus((b) =>
        b.subscribe(service, type, async () => {
          throw new AppError('invalid', 'cannot handle this');
        }),
      );
      const depth = async () => {
        const sample = (await scrape()).find((s) => s.name === 'formcast_bus_dead_letters' && s.labels.consumer === service);
        return sample?.value;
      };
      expect(await depth()).toBe(0);

      await bus.publish(createEnvelope(type, {}));
      await bus.publish(createEnvelope(type, {}));
      await waitFor(async () => (await depth()) === 2, { description: 'two dead letters counted' });
      expect(sampleValue(await scrape(), 'formcast_bus_event_redeliveries_total', { consumer: service, event: type })).toBe(2 * (contractBusOptions.maxAttempts - 1));

      await bus.close();
      expect(await depth()).toBeUndefined();
    });
  });
}
