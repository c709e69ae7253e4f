import { join } from 'node:path';
import { startNode, type Child } from './children';
import { benchDist, config } from './config';

/** What the OTLP receiver had from one system under test so far. */
export interface TracesReceived {
  /** Export requests (each a batch of spans). */
  requests: number;
  /** Bytes of their bodies, as sent. */
  bytes: number;
  spans: number;
  /** Requests whose body the receiver could not read (answered 400): a reading with any is not one. */
  refused: number;
}

const nothing: TracesReceived = { requests: 0, bytes: 0, spans: 0, refused: 0 };

/**
 * S1T/S2T's local OTLP/HTTP receiver (servers/otlp-receiver.ts, a process of its own),
 * through its IPC. Each system exports to a base path of its own, so its spans are counted apart.
 */
export class TraceReceiver {
  private constructor(
    readonly child: Child,
    private readonly origin: string,
  ) {}

  static async start(): Promise<TraceReceiver> {
    const child = startNode('otlp-receiver', join(benchDist, 'servers/otlp-receiver.js'), {});
    const { origin } = await child.message<{ origin: string }>((m) => m?.ready);
    return new TraceReceiver(child, origin);
  }

  /**
   * A system's settings to export its traces here, as a user turns tracing on
   * (OTEL_EXPORTER_OTLP_ENDPOINT; the exporter appends /v1/traces; http/protobuf, the default).
   */
  exportSettings(system: string): Record<string, string> {
    return {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${this.origin}/${system}`,
      ...(config.tracesSampler ? { OTEL_TRACES_SAMPLER: config.tracesSampler } : {}),
      ...(config.tracesSamplerArg ? { OTEL_TRACES_SAMPLER_ARG: config.tracesSamplerArg } : {}),
    };
  }

  /** What `system` exported so far. */
  async received(system: string): Promise<TracesReceived> {
    this.child.send({ count: true });
    const { counts } = await this.child.message<{ counts: Record<string, TracesReceived> }>((m) => m?.counts !== undefined);
    return counts[`/${system}`] ?? nothing;
  }
}
