import type { Envelope } from '@formcast/contracts';
import { activeTraceContext, inSpan, SpanKind, tracingOn, type Attributes, type SpanParent } from '@formcast/tracing';
import type { CommandHandler, EventHandler } from './port';

/**
 * The spans both bus adapters open while tracing is on (@formcast/tracing), the envelope
 * carrying the sending span's W3C trace context (`Envelope.traceContext`) so the receiving
 * side's span joins its trace: a client span around a command's round trip and a server
 * span around its handler; a producer span around a publish and a consumer span around an
 * event's handler. While tracing is off, each is a plain call through.
 *
 * In process, a command's round trip and its handler are the same moment in the same
 * process: the server span alone stands for both (a client span would repeat it, at the cost
 * of a span a command), child of the caller's span, which is still the active one where the
 * handler runs (the async context crosses the in-process broker by itself): the command
 * carries no context. Events carry theirs in process too (an outbox keeps it), without a
 * producer span (see publish).
 */
export class BusTracing {
  /** Whether the sending side opens spans of its own (client, producer): only between processes. */
  private readonly clientSpans: boolean;

  constructor(private readonly system: 'rabbitmq' | 'in-process') {
    this.clientSpans = system === 'rabbitmq';
  }

  /** `send` gets the command carrying the client span's context (in process: the command as it is). */
  request<T>(command: Envelope, send: (command: Envelope) => Promise<T>): Promise<T> {
    if (!tracingOn() || !this.clientSpans) return send(command);
    return inSpan(`send ${command.type}`, SpanKind.CLIENT, (traced) => send({ ...command, traceContext: traced() }), undefined, this.attributes(command, 'send'));
  }

  commandHandler(service: string, handler: CommandHandler): CommandHandler {
    return (command) => {
      if (!tracingOn()) return handler(command);
      const attributes = this.attributes(command, 'process');
      attributes['formcast.service'] = service;
      const parent: SpanParent = this.clientSpans ? { remote: command.traceContext } : undefined;
      return inSpan(`handle ${command.type}`, SpanKind.SERVER, () => handler(command), parent, attributes);
    };
  }

  /**
   * A producer span, child of the context the event was written under (an outbox keeps it
   * with the event), else of the active span; `publish` gets the event carrying the producer
   * span's context. In process, no producer span: the publish is a move into memory, and the
   * consumer span, child of the event's context, starts when it is taken out (the wait shows
   * as the gap after the store write); an event without a context gets the active one.
   */
  publish(event: Envelope, publish: (event: Envelope) => Promise<void>): Promise<void> {
    if (!tracingOn()) return publish(event);
    if (!this.clientSpans) return publish(event.traceContext ? event : { ...event, traceContext: activeTraceContext() });
    const parent = event.traceContext ? { remote: event.traceContext } : undefined;
    return inSpan(`publish ${event.type}`, SpanKind.PRODUCER, (traced) => publish({ ...event, traceContext: traced() }), parent, this.attributes(event, 'publish'));
  }

  eventHandler(service: string, handler: EventHandler): EventHandler {
    return (event, delivery) => {
      if (!tracingOn()) return handler(event, delivery);
      const attributes = this.attributes(event, 'process');
      attributes['formcast.service'] = service;
      attributes['formcast.attempt'] = delivery?.attempt ?? 1;
      return inSpan(`process ${event.type}`, SpanKind.CONSUMER, () => handler(event, delivery), { remote: event.traceContext }, attributes);
    };
  }

  private attributes(envelope: Envelope, operation: string): Attributes {
    return {
      'messaging.system': this.system,
      'messaging.operation.type': operation,
      'messaging.destination.name': envelope.type,
      'messaging.message.id': envelope.id,
      'formcast.request_id': envelope.requestId,
    };
  }
}
