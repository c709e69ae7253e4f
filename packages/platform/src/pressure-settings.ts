import { z } from 'zod';

/**
 * The limits that keep one organization, device or client from taking what others need
 * (issue 25): caps on stored work, rate limits, load shedding and the budgets of hostile
 * uploads. Part of `settingsSchema`; each is listed in docs/security-and-limits.md "Limits" with the answer past it.
 */
const perSecond = (fallback: number) => z.coerce.number().min(0.01).max(1_000_000).default(fallback);
const burst = (fallback: number) => z.coerce.number().int().min(1).max(10_000_000).default(fallback);

export const pressureSettings = {
  /** RATE_LIMITS_ENABLED: `false` turns every rate limit off (the caps and shedding stay). */
  RATE_LIMITS_ENABLED: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || v === '' || v === 'true' || v === 'false', { message: 'must be true or false' })
    .transform((v) => v !== 'false'),
  /**
   * Each RATE_LIMIT_*_PER_SECOND / _BURST pair is a token bucket (GCRA, services/gateway
   * http/token-bucket.ts): `_BURST` tokens, refilled at `_PER_SECOND` (0.01 and up); a request
   * takes a whole token. Over any time t a key gets at most _BURST + _PER_SECOND × t.
   * RATE_LIMIT_ORGANIZATION_PER_SECOND / _BURST: requests of one organization (API token).
   */
  RATE_LIMIT_ORGANIZATION_PER_SECOND: perSecond(1000),
  RATE_LIMIT_ORGANIZATION_BURST: burst(5000),
  /** RATE_LIMIT_DEVICE_PER_SECOND / _BURST: requests of one device on the device-side routes. */
  RATE_LIMIT_DEVICE_PER_SECOND: perSecond(20),
  RATE_LIMIT_DEVICE_BURST: burst(200),
  /** RATE_LIMIT_ADDRESS_PER_SECOND / _BURST: device-side and enrollment requests from one client address. */
  RATE_LIMIT_ADDRESS_PER_SECOND: perSecond(200),
  RATE_LIMIT_ADDRESS_BURST: burst(2000),
  /** RATE_LIMIT_ENROLLMENT_PER_SECOND / _BURST: enrollments (right or wrong) from one client address. */
  RATE_LIMIT_ENROLLMENT_PER_SECOND: perSecond(2),
  RATE_LIMIT_ENROLLMENT_BURST: burst(60),
  /** RATE_LIMIT_ENROLLMENT_FAILURES: refused enrollment codes one client address may send per RATE_LIMIT_ENROLLMENT_FAILURES_WINDOW_SECONDS. */
  RATE_LIMIT_ENROLLMENT_FAILURES: z.coerce.number().int().min(1).max(1_000_000).default(30),
  RATE_LIMIT_ENROLLMENT_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** DELIVERY_MAX_DESTINATIONS_PER_FORM: destinations one form may have; one more is 422. */
  DELIVERY_MAX_DESTINATIONS_PER_FORM: z.coerce.number().int().min(1).max(10000).default(25),
  /** SHED_MAX_IN_FLIGHT: requests the gateway holds at once; past it a new one is 503 at once (0: no bound). */
  SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** SHED_MAX_IN_FLIGHT_PER_ORGANIZATION: requests of one organization the gateway holds at once; past it its new ones are 503 at once, others' still served (0: no bound). */
  SHED_MAX_IN_FLIGHT_PER_ORGANIZATION: z.coerce.number().int().min(0).max(1_000_000).default(128),
  /** SHED_RUNNING_PER_ORGANIZATION: of those, how many the gateway works on at once; the others wait (up to 1 s, then 503) in their organization's line, before any work (0: no line). */
  SHED_RUNNING_PER_ORGANIZATION: z.coerce.number().int().min(0).max(1_000_000).default(16),
  /** SHED_RUNNING_PER_ORGANIZATION_WHEN_SHARED: as many, while another organization's requests came within the last second and the gateway holds SHED_RUNNING_PER_ORGANIZATION requests or more in all (0: never fewer). */
  SHED_RUNNING_PER_ORGANIZATION_WHEN_SHARED: z.coerce.number().int().min(0).max(1_000_000).default(4),
  /** BUS_COMMANDS_PER_ORGANIZATION: commands of one organization a service process runs at once; more wait behind their own (0: no cap). */
  BUS_COMMANDS_PER_ORGANIZATION: z.coerce.number().int().min(0).max(1_000_000).default(8),
  /** BUS_EVENTS_PER_ORGANIZATION: events of one organization a consuming service process handles at once; more wait behind their own (0: no cap). */
  BUS_EVENTS_PER_ORGANIZATION: z.coerce.number().int().min(0).max(1_000_000).default(128),
  /** BUS_EVENT_LOOK_AHEAD: RabbitMQ only: events a consuming process takes beyond its prefetch, held in their organization's line, so another organization's event behind a backlog is served without sending the backlog round the broker. */
  BUS_EVENT_LOOK_AHEAD: z.coerce.number().int().min(0).max(65_535).default(4096),
  /** BUS_COMMAND_PREFETCH: RabbitMQ only: commands a service process takes from its queue at once, so others' pass a flood's waiting ones. */
  BUS_COMMAND_PREFETCH: z.coerce.number().int().min(1).max(65_535).default(256),
  /** SHED_EVENT_LOOP_DELAY_MS: past this event-loop delay (p99 over SHED_SAMPLE_INTERVAL_MS), new requests are 503 at once (0: never). */
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /** SHED_REFUSED_CONNECTION_PAUSE_MS: a connection whose request was answered 429 or 503 is read again only this long after (0: at once). */
  SHED_REFUSED_CONNECTION_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(200),
  /** SHED_SAMPLE_INTERVAL_MS: how often the event-loop delay is read (each reading covers the interval before it). */
  SHED_SAMPLE_INTERVAL_MS: z.coerce.number().int().min(20).max(10_000).default(250),
  /** PUSH_MAX_OUTSTANDING_PER_DEVICE: dispatches outstanding on one device at once (scheduled ones too); one more is 422. */
  PUSH_MAX_OUTSTANDING_PER_DEVICE: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /** RESOURCE_SUMMARY_MAX_BYTES: bytes a spreadsheet's summary may inflate and parse (its sheets' first rows, their shared strings); past it 422. */
  RESOURCE_SUMMARY_MAX_BYTES: z.coerce.number().int().min(64 * 1024).max(2 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
  /** RESOURCE_SUMMARY_MAX_CPU_MS: milliseconds a spreadsheet's summary may spend parsing; past it 422. */
  RESOURCE_SUMMARY_MAX_CPU_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
};
