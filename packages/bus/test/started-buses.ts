import type { Bus } from '../src';

/**
 * Buses a contract test starts, each closed after its test (registers the afterEach):
 * `startedBus(register)` makes a bus with `makeBus`, lets `register` add its handlers, starts it.
 */
export function startedBuses<O>(makeBus: (options: O) => Promise<Bus>) {
  const opened: Bus[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });
  return async function startedBus(register: (bus: Bus) => void = () => undefined, options = {} as O): Promise<Bus> {
    const bus = await makeBus(options);
    opened.push(bus);
    register(bus);
    await bus.start();
    return bus;
  };
}
