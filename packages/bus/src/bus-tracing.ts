import type { Envelope } from '@formcast/contracts';
import { inSpan, SpanKind, tracingOn, type Attributes } from '@formcast/tracing';
import type { CommandHandler, EventHandler } from './port';

/**
 * The spans both bus adapters open while tracing is on (@formcast/tracing), the envelope
 * carrying the sending span's W3C trace context (`Envelope.traceContext`) so the receiving
 * side's span joins its trace: a client span around a command's round trip and a server
 * span around its handler; a producer span around a publish and a consumer span around an
 * event's handler. While tracing is off, each is a plain call through.
 */
export class BusTracing {
  constructor(private readonly system: 'rabbitmq' | 'in-process') {}

  /** `send` gets the command carrying the client span's context. */
  request<T>(command: Envelope, send: (command: Envelope) => Promise<T>): Promise<T> {
    if (!tracingOn()) return send(command);
    return inSpan(`send ${command.type}`, SpanKind.CLIENT, (traced) => send({ ...command, traceContext: traced() }), undefined, this.attributes(command, 'send'));
  }

  commandHandler(service: string, handler: CommandHandler): CommandHandler {
    return (command) => {
      if (!tracingOn()) return handler(command);
      const attributes = { ...this.attributes(command, 'process'), 'formcast.service': service };
      return inSpan(`handle ${command.type}`, SpanKind.SERVER, () => handler(command), { remote: command.traceContext }, attributes);
    };
  }

  /**
   * A producer span, child of the context the event was written under (an outbox keeps it
   * with the event), else of the active span; `publish` gets the event carrying the producer span's context.
   */
  publish(event: Envelope, publish: (event: Envelope) => Promise<void>): Promise<void> {
    if (!tracingOn()) return publish(event);
    const parent = event.traceContext ? { remote: event.traceContext } : undefined;
    return inSpan(`publish ${event.type}`, SpanKind.PRODUCER, (traced) => publish({ ...event, traceContext: traced() }), parent, this.attributes(event, 'publish'));
  }

  eventHandler(service: string, handler: EventHandler): EventHandler {
    return (event, delivery) => {
      if (!tracingOn()) return handler(event, delivery);
      const attributes = { ...this.attributes(event, 'process'), 'formcast.service': service, 'formcast.attempt': delivery?.attempt ?? 1 };
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
