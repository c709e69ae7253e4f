import { activeTraceContext, openSpan, SpanKind, tracingOn, type OpenSpan, type TraceContext } from '@formcast/tracing';
import type { SendOutcome } from '../domain/send-outcome';

/** The trace contexts of the events waiting on one device's send (merged notifications: several). */
export type SendTraces = TraceContext[];

/** The context of the event handler handing a notification over, kept with it until it is sent; none while tracing is off. */
export function sendTracesHere(): SendTraces | undefined {
  const here = activeTraceContext();
  return here && [here];
}

/**
 * One `fcm send` client span per event a batch answers, each a child of that event's
 * consumer span (a batch mixes many traces; a span with links would leave each trace without
 * its send), all around the one `sendEach`. Ended with the outcome of its notification.
 */
export class SendSpans {
  private constructor(private readonly spans: OpenSpan[][]) {}

  static open(batch: Array<SendTraces | undefined>): SendSpans | undefined {
    if (!tracingOn() || batch.every((traces) => !traces)) return undefined;
    const attributes = { 'messaging.system': 'fcm', 'formcast.fcm.batch_size': batch.length };
    return new SendSpans(
      batch.map((traces) => (traces ?? []).map((parent) => openSpan('fcm send', SpanKind.CLIENT, { remote: parent }, attributes)!)),
    );
  }

  end(outcomeAt: (index: number) => SendOutcome): void {
    this.spans.forEach((spans, index) => {
      const outcome = outcomeAt(index);
      const attributes = { 'formcast.fcm.outcome': outcome.status, ...('code' in outcome ? { 'formcast.fcm.code': outcome.code } : {}) };
      const error = outcome.status === 'sent' ? undefined : new Error(`${outcome.code}: ${outcome.message}`);
      for (const span of spans) span.end(error ? { attributes, error } : { attributes });
    });
  }
}
