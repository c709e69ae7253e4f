import { settingsSchema, type Settings } from '@formcast/platform';

/** How long the gateway waits for a request's parts (settings REQUEST_*, REFUSED_BODY_DRAIN_MS, KEEP_ALIVE_TIMEOUT_MS). */
export interface HttpTimeouts {
  /** The request line and headers, from the request's first byte (or the connection's opening). */
  headersMs: number;
  /** A body: this, plus its size at `bodyMinBytesPerSecond`. */
  bodyBaseMs: number;
  bodyMinBytesPerSecond: number;
  /** A refused body is read and dropped for at most this long after the answer. */
  refusedBodyDrainMs: number;
  /** An idle keep-alive connection. */
  keepAliveMs: number;
}

type TimeoutSettings = Pick<
  Settings,
  'REQUEST_HEADERS_TIMEOUT_MS' | 'REQUEST_BODY_TIMEOUT_MS' | 'REQUEST_BODY_MIN_BYTES_PER_SECOND' | 'REFUSED_BODY_DRAIN_MS' | 'KEEP_ALIVE_TIMEOUT_MS'
>;

export function httpTimeouts(settings: TimeoutSettings): HttpTimeouts {
  return {
    headersMs: settings.REQUEST_HEADERS_TIMEOUT_MS,
    bodyBaseMs: settings.REQUEST_BODY_TIMEOUT_MS,
    bodyMinBytesPerSecond: settings.REQUEST_BODY_MIN_BYTES_PER_SECOND,
    refusedBodyDrainMs: settings.REFUSED_BODY_DRAIN_MS,
    keepAliveMs: settings.KEEP_ALIVE_TIMEOUT_MS,
  };
}

/** The settings' defaults. */
export const defaultHttpTimeouts: HttpTimeouts = httpTimeouts(settingsSchema.parse({}));

/** The time a body of `bytes` may take to arrive. */
export function bodyTimeoutMs(bytes: number, timeouts: HttpTimeouts): number {
  return timeouts.bodyBaseMs + Math.ceil((bytes * 1000) / timeouts.bodyMinBytesPerSecond);
}
