import { createEnvelope } from '@formcast/contracts';
import { waitFor } from '@formcast/testing';
import { handlersByName, InProcessBus, registerServiceHandlers } from '../src';

describe('registerServiceHandlers', () => {
  it("serves each command and consumes each event under the service's name, every handler made from the deps", async () => {
    const bus = new InProcessBus();
    const deps = { greeting: 'hello', seen: [] as string[] };
    const made: string[] = [];
    registerServiceHandlers(bus, 'greeter', deps, {
      commands: {
        'greeter.greet': (d) => {
          made.push('greet');
          return async (command) => `${d.greeting} ${(command.payload as { name: string }).name}`;
        },
      },
      events: {
        'someone.arrived': (d) => {
          made.push('arrived');
          return async (event) => {
            d.seen.push((event.payload as { name: string }).name);
          };
        },
      },
    });
    await bus.start();
    try {
      expect(made).toEqual(['greet', 'arrived']);
      await expect(bus.request(createEnvelope('greeter.greet', { name: 'Ada' }, { orgId: 1 }))).resolves.toBe('hello Ada');
      await bus.publish(createEnvelope('someone.arrived', { name: 'Grace' }, { orgId: 1 }));
      await waitFor(() => deps.seen.length === 1, { description: 'the event' });
      expect(deps.seen).toEqual(['Grace']);
    } finally {
      await bus.close();
    }
  });
});

describe('handlersByName', () => {
  it("keys each maker by the contract's message its name names", () => {
    const greet = () => async () => 'hello';
    const leave = () => async () => 'goodbye';
    const table = handlersByName({ greet: 'greeter.greet', leave: 'greeter.leave' }, { greet, leave });
    expect(table).toEqual({ 'greeter.greet': greet, 'greeter.leave': leave });
  });
});
