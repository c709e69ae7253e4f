import { createEnvelope, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { uniqueName, waitFor } from '@formcast/testing';
import { openSpan, recordSpansInMemory, SpanKind, type ReadableSpan, type SpansInMemory } from '@formcast/tracing';
import type { Bus } from '../src/port';
import { startedBuses } from './started-buses';

function named(spans: ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/**
 * The spans every Bus adapter opens while tracing is on, joined into one trace through the
 * envelope's W3C trace context; none, and no context on the wire, while it is off. `makeBus`
 * as for the bus contract. Tracing is process-wide: it is on only inside this describe.
 * `between`: an adapter between processes opens a client span around a command's round trip
 * and a producer span around a publish; the in-process one only the receiving side's spans
 * (server, consumer), its sending side being the same moment in the same process (commands)
 * or a move into memory (events).
 */
export function describeBusTracingContract(name: string, makeBus: () => Promise<Bus>, between: 'processes' | 'in process' = 'processes'): void {
  const withClient = between === 'processes';
  describe(`${name} (traces)`, () => {
    const startedBus = startedBuses(() => makeBus());

    it('carries no trace context while tracing is off', async () => {
      const service = uniqueName('svc');
      const type = uniqueName('cmd');
      const event = uniqueName('evt');
      const seen: Envelope[] = [];
      const bus = await startedBus((b) => {
        b.handleCommand(service, type, async (command) => command.traceContext ?? null);
        b.subscribe(service, event, async (received) => {
          seen.push(received);
        });
      });
      await expect(bus.request(createEnvelope(type, {}))).resolves.toBeNull();
      await bus.publish(createEnvelope(event, {}));
      await waitFor(() => seen.length === 1);
      expect(seen[0]).not.toHaveProperty('traceContext');
    });

    describe('with tracing on', () => {
      let recorded: SpansInMemory;

      beforeAll(() => {
        recorded = recordSpansInMemory();
      });
      afterAll(async () => {
        await recorded.stop();
      });
      beforeEach(() => recorded.reset());

      it('runs a command’s handler in a server span, in the caller’s trace', async () => {
        const service = uniqueName('svc');
        const type = uniqueName('cmd');
        const bus = await startedBus((b) => b.handleCommand(service, type, async (command) => command.traceContext?.traceparent ?? null));
        const caller = openSpan('caller', SpanKind.INTERNAL)!;
        const traceparent = await caller.run(() => bus.request<string>(createEnvelope(type, {})));
        caller.end();

        await waitFor(() => recorded.spans().length === (withClient ? 3 : 2));
        const spans = recorded.spans();
        const server = named(spans, `handle ${type}`);
        const root = named(spans, 'caller');
        expect(server.kind).toBe(SpanKind.SERVER);
        expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([root.spanContext().traceId]));
        expect(server.attributes).toMatchObject({ 'messaging.destination.name': type, 'formcast.service': service });
        if (withClient) {
          // The client span around the round trip, child of the caller; the server span its child.
          const client = named(spans, `send ${type}`);
          expect(client.kind).toBe(SpanKind.CLIENT);
          expect(parentOf(client)).toBe(root.spanContext().spanId);
          expect(parentOf(server)).toBe(client.spanContext().spanId);
          expect(traceparent).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
        } else {
          // One span for the command: the server span, child of the caller (still active where the handler runs; the command carries no context).
          expect(spans.map((span) => span.name).sort()).toEqual(['caller', `handle ${type}`]);
          expect(parentOf(server)).toBe(root.spanContext().spanId);
          expect(traceparent).toBeNull();
        }
      });

      it('marks the server span of a command that failed as an error', async () => {
        const service = uniqueName('svc');
        const type = uniqueName('cmd');
        const bus = await startedBus((b) =>
          b.handleCommand(service, type, async () => {
            throw new AppError('not_found', 'no such thing');
          }),
        );
        await expect(bus.request(createEnvelope(type, {}))).rejects.toMatchObject({ code: 'not_found' });
        await waitFor(() => recorded.spans().length === (withClient ? 2 : 1));
        expect(named(recorded.spans(), `handle ${type}`).status).toMatchObject({ code: 2, message: 'no such thing' });
        if (withClient) expect(named(recorded.spans(), `send ${type}`).status).toMatchObject({ code: 2 });
      });

      it('handles an event in a consumer span in the trace of the context the event carried (between processes: child of a producer span, itself child of it)', async () => {
        const service = uniqueName('svc');
        const type = uniqueName('evt');
        const bus = await startedBus((b) => b.subscribe(service, type, async () => undefined));
        // As an outbox does: the event written under a span, published later outside it.
        const writer = openSpan('store write', SpanKind.INTERNAL)!;
        const event = { ...createEnvelope(type, {}), traceContext: writer.traceContext() };
        writer.end();
        await bus.publish(event);

        await waitFor(() => recorded.spans().length === (withClient ? 3 : 2));
        const consumer = named(recorded.spans(), `process ${type}`);
        const written = named(recorded.spans(), 'store write');
        expect(consumer.kind).toBe(SpanKind.CONSUMER);
        expect(consumer.spanContext().traceId).toBe(written.spanContext().traceId);
        if (withClient) {
          const producer = named(recorded.spans(), `publish ${type}`);
          expect(producer.kind).toBe(SpanKind.PRODUCER);
          expect(parentOf(producer)).toBe(written.spanContext().spanId);
          expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
        } else {
          expect(parentOf(consumer)).toBe(written.spanContext().spanId);
        }
      });

      it('publishes an event that carries no context in the trace of the active span, else in a trace of its own', async () => {
        const service = uniqueName('svc');
        const type = uniqueName('evt');
        const bus = await startedBus((b) => b.subscribe(service, type, async () => undefined));
        await bus.publish(createEnvelope(type, {}));
        const publisher = openSpan('publisher', SpanKind.INTERNAL, { remote: undefined })!;
        await publisher.run(() => bus.publish(createEnvelope(type, {})));
        publisher.end();
        await waitFor(() => recorded.spans().filter((span) => span.name === `process ${type}`).length === 2);
        // In the order published: one consumer takes them one after the other.
        const [alone, underPublisher] = recorded.spans().filter((span) => span.name === `process ${type}`);
        const inTraceOf = (span: ReadableSpan) => recorded.spans().filter((other) => other.spanContext().traceId === span.spanContext().traceId);
        const root = (span: ReadableSpan) => inTraceOf(span).find((other) => parentOf(other) === undefined)!;
        expect(root(alone!).name).toBe(withClient ? `publish ${type}` : `process ${type}`);
        expect(root(underPublisher!).name).toBe('publisher');
        expect(alone!.spanContext().traceId).not.toBe(underPublisher!.spanContext().traceId);
      });
    });
  });
}
