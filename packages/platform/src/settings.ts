import { z } from 'zod';
import { pressureSettings } from './pressure-settings';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

function isServiceAccountJson(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null) return false;
    const account = parsed as Record<string, unknown>;
    return ['project_id', 'client_email', 'private_key'].every((key) => typeof account[key] === 'string' && account[key] !== '');
  } catch {
    return false;
  }
}

/** A file's path; empty = unset. */
const optionalPath = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** `true` or `false` (any case; empty = the default): z.coerce.boolean would take "false" for true. */
const booleanFlag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || v === '' || v === 'true' || v === 'false', { message: 'must be true or false' })
    .transform((v) => (v === undefined || v === '' ? fallback : v === 'true'));

/** An AES-256 key: 32 bytes in Base64 (standard or URL-safe alphabet); empty = unset. */
const base64Key = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine((v) => v === undefined || (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32), {
    message: 'must be 32 bytes in Base64 (e.g. `openssl rand -base64 32`)',
  });

/** Every setting of every process, with its environment name, default and meaning. */
export const settingsSchema = z.object({
  /** PORT: the HTTP port of the gateway (0 picks a free one). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * HEALTH_PORT: where a service running alone (not the gateway, whose probes are on PORT)
   * answers `/healthz` and `/readyz` (0 picks a free one, logged as `healthPort`).
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * METRICS_ENABLED: Prometheus metrics (`/metrics`: a service's HEALTH_PORT, the gateway's
   * METRICS_PORT, embedded mode's PORT behind the admin token). `false`: nothing recorded or served.
   */
  METRICS_ENABLED: booleanFlag(true),
  /** METRICS_PORT: where the gateway running alone serves `/metrics`, apart from its public PORT (0 picks a free one). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /**
   * TLS_CERT_FILE and TLS_KEY_FILE: a PEM certificate (its chain after it) and its private key;
   * set both and the gateway serves HTTPS on PORT (TLS 1.2 or newer, HTTP/1.1), taking up
   * new files within seconds of their change without a restart. Unset: HTTP, as behind an
   * ingress or load balancer that ends TLS.
   */
  TLS_CERT_FILE: optionalPath,
  TLS_KEY_FILE: optionalPath,
  /**
   * SHUTDOWN_GRACE_MS: after SIGTERM, how long the process may take to stop taking work,
   * finish what is in flight and close before it exits anyway. Keep it below the
   * orchestrator's grace period (Kubernetes' terminationGracePeriodSeconds).
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(10 * 60 * 1000).default(25000),
  /** DATA_DIR: where embedded mode keeps its SQLite files and generated admin token. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** SQLITE_BINDING: the module running SQLite, better-sqlite3 (a native addon) or node:sqlite (Node's own); see docs/architecture.md. */
  SQLITE_BINDING: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || 'better-sqlite3')
    .pipe(z.enum(['better-sqlite3', 'node:sqlite'])),
  /** ADMIN_TOKEN: guards /admin; embedded mode generates one at first start when unset. */
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  /** AMQP_URL: RabbitMQ; unset = in-process bus. */
  AMQP_URL: optionalUrl(['amqp://', 'amqps://']),
  /**
   * AMQP_PREFIX: the first part of every exchange and queue name; give each system sharing
   * one broker (staging, a test run) its own. Every process of one system needs the same.
   */
  AMQP_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/, { message: 'must be 1 to 100 letters, digits, _, - or .' })
    .default('formcast'),
  /** MONGO_URL: MongoDB; unset = SQLite under DATA_DIR. */
  MONGO_URL: optionalUrl(['mongodb://', 'mongodb+srv://']),
  /** REDIS_URL: Redis for badges; unset = SQLite. */
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  /**
   * BADGE_TOMBSTONE_TTL_HOURS: how long the notifier remembers that a oneshot ended, so a
   * late or redelivered `created` for it is not counted again (default 7 days).
   */
  BADGE_TOMBSTONE_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(24 * 7),
  /**
   * FCM_SERVICE_ACCOUNT: a Firebase service account key (the JSON itself) for sending FCM
   * notifications; takes precedence over GOOGLE_APPLICATION_CREDENTIALS.
   */
  FCM_SERVICE_ACCOUNT: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isServiceAccountJson(v), {
      message: 'must be a service account key JSON with project_id, client_email and private_key',
    }),
  /** GOOGLE_APPLICATION_CREDENTIALS: path of a Google credentials file, for FCM; unset with FCM_SERVICE_ACCOUNT unset = notifications are logged. */
  GOOGLE_APPLICATION_CREDENTIALS: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** LOG_LEVEL: pino level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** FORM_NAMESPACE_BASE: the base of generated form namespaces (`<base>/xforms/<uuid>`). */
  FORM_NAMESPACE_BASE: z.string().url().default('http://formcast.local'),
  /** COMMAND_TIMEOUT_MS: how long the gateway waits for a command's reply before 504. */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
  /** PUSH_RELEASE_INTERVAL_MS: how soon the push service looks for due scheduled dispatches after a write or a failed look (it looks at each one's time, and every 30 s with none waiting). */
  PUSH_RELEASE_INTERVAL_MS: z.coerce.number().int().min(10).max(60000).default(1000),
  /**
   * PUSH_DELETIONS_SWEEP_INTERVAL_MS: how often a push process asks the directory about every device and form
   * that outstanding oneshots are of, revoking those of one it no longer has (a lost directory.device.deleted
   * or directory.form.deleted).
   */
  PUSH_DELETIONS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(24 * 60 * 60 * 1000).default(15 * 60 * 1000),
  /** BODY_LIMIT_BYTES: the largest request body the gateway reads (413 above it). */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /**
   * REQUEST_HEADERS_TIMEOUT_MS: a request's line and headers must arrive within this
   * time of its first byte (or of the connection's opening); past it, 408 and the
   * connection is closed (Node's headersTimeout). Slowloris connections end here.
   */
  REQUEST_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(10 * 60 * 1000).default(30000),
  /**
   * REQUEST_BODY_TIMEOUT_MS and REQUEST_BODY_MIN_BYTES_PER_SECOND: a body must arrive within
   * REQUEST_BODY_TIMEOUT_MS plus the time its size takes at REQUEST_BODY_MIN_BYTES_PER_SECOND
   * (its Content-Length, or the route's limit when chunked); past it, 408 and the connection
   * is closed. Defaults: 30 s + 64 KiB/s, so 1 MiB gets 46 s, a 50 MB file's ~67 MB of Base64 ~18 min.
   */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60 * 60 * 1000).default(30000),
  REQUEST_BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(1).default(64 * 1024),
  /**
   * REFUSED_BODY_DRAIN_MS: a body refused before its end (413, 401, …) is still read and
   * dropped so the client, still sending, can read the answer: until it ends, for at most
   * this long or until the body passed the route's limit by the limit's size, whichever
   * comes first; then the connection is closed (nginx's lingering_time, 30 s).
   */
  REFUSED_BODY_DRAIN_MS: z.coerce.number().int().min(0).max(10 * 60 * 1000).default(30000),
  /**
   * KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this long (Node's
   * default, 5 s). Behind a load balancer, make it longer than the balancer's idle timeout.
   */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(10 * 60 * 1000).default(5000),
  /**
   * HTTP_ACCEPT_SOCKETS: listening sockets on PORT (Linux, SO_REUSEPORT), so that a busy
   * gateway still takes in new connections: Node accepts one connection per socket per turn
   * of its event loop. 1: one socket (the only choice on other systems).
   */
  HTTP_ACCEPT_SOCKETS: z.coerce.number().int().min(1).max(64).default(8),
  /**
   * RESOURCE_MAX_BYTES: the largest resource file, in bytes once decoded (413 above it).
   * Give the gateway and the resources service the same value. At most 100 MiB: a file
   * travels as Base64 text in one message, and its request body is read into one string.
   */
  RESOURCE_MAX_BYTES: z.coerce.number().int().min(1).max(100 * 1024 * 1024).default(50 * 1024 * 1024),
  /**
   * SUBMISSION_IMAGE_MAX_BYTES: the largest submission image a device uploads
   * (v3/submission_image.md), in bytes; a larger body is 413 before it is read. At most 50 MiB.
   */
  SUBMISSION_IMAGE_MAX_BYTES: z.coerce.number().int().min(1).max(50 * 1024 * 1024).default(10 * 1024 * 1024),
  /**
   * DELIVERY_ALLOW_PRIVATE_NETWORKS: `true` lets destinations reach loopback, private,
   * link-local, unique-local and CGNAT addresses (tests, on-premises receivers). Cloud
   * metadata, unspecified, multicast and reserved addresses stay refused either way.
   */
  DELIVERY_ALLOW_PRIVATE_NETWORKS: booleanFlag(false),
  /** DELIVERY_TIMEOUT_MS: one delivery attempt, connection to the end of the answer; past it the attempt failed. */
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
  /** DELIVERY_CONCURRENCY: attempts a delivery process makes at once, all destinations together. */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** DELIVERY_DESTINATION_CONCURRENCY: attempts at once to one destination (a slow receiver holds no more). */
  DELIVERY_DESTINATION_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** DELIVERY_ORGANIZATION_CONCURRENCY: attempts at once for one organization, all its destinations together. */
  DELIVERY_ORGANIZATION_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  /**
   * DELIVERY_SECRETS_KEY: the key (32 bytes in Base64: `openssl rand -base64 32`) that encrypts
   * destinations' signing secrets at rest (AES-256-GCM). Required with MONGO_URL; unset on
   * SQLite, one is generated at first start into DATA_DIR/delivery-secrets-key (0600).
   */
  DELIVERY_SECRETS_KEY: base64Key,
  /**
   * DELIVERY_SECRETS_PREVIOUS_KEY: the key DELIVERY_SECRETS_KEY replaced, during a key rotation:
   * secrets sealed with it are still read, and sealed again with the new key at start.
   */
  DELIVERY_SECRETS_PREVIOUS_KEY: base64Key,
  /**
   * DELIVERY_RETENTION_DAYS: ended deliveries (delivered, or given up) and their attempts are
   * removed this long after they ended (Svix keeps attempts 90 days). Pending ones are kept.
   */
  DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * DELIVERY_SMTP_URL: the deployment's own SMTP server, for email destinations that name
   * none (`via_custom_smtp` false): `smtp://[user:password@]host[:port]` (STARTTLS when the
   * server offers it) or `smtps://…` (TLS from the start). Unset: those destinations are refused.
   */
  DELIVERY_SMTP_URL: optionalUrl(['smtp://', 'smtps://']).refine((v) => v === undefined || URL.canParse(v), { message: 'must be a URL' }),
  /** DELIVERY_MAIL_FROM: the sender of documents sent by email, when a destination names no from_address. */
  DELIVERY_MAIL_FROM: z.string().trim().regex(/^[^\s@<>]+@[^\s@<>]+$/, { message: 'must be an email address' }).default('formcast@localhost'),
  /** DELIVERY_RENDER_TIMEOUT_MS: the longest one document (PDF, .docx, a template) may take to render; past it the delivery fails. */
  DELIVERY_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(300000).default(10000),
  /** DELIVERY_RENDER_MEMORY_MB: the heap of the rendering worker; a document needing more fails, and nothing else does. */
  DELIVERY_RENDER_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(128),
  /** DELIVERY_RENDER_WORKERS: worker threads rendering documents at once, in each delivery process. */
  DELIVERY_RENDER_WORKERS: z.coerce.number().int().min(1).max(32).default(1),
  /**
   * DELIVERY_SWEEP_INTERVAL_MS: how often a delivery process removes what is past DELIVERY_RETENTION_DAYS,
   * and the destinations of forms the directory no longer has (a lost directory.form.deleted).
   */
  DELIVERY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(24 * 60 * 60 * 1000).default(15 * 60 * 1000),
  ...pressureSettings,
});

export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {}

/** Reads and validates settings; throws SettingsError with one line naming the bad setting. */
export function parseSettings(env: Record<string, string | undefined> = process.env): Settings {
  const result = settingsSchema.safeParse(env);
  if (result.success) {
    const { TLS_CERT_FILE, TLS_KEY_FILE } = result.data;
    if (TLS_CERT_FILE === undefined && TLS_KEY_FILE !== undefined) throw new SettingsError('Invalid setting TLS_CERT_FILE: must be set with TLS_KEY_FILE');
    if (TLS_KEY_FILE === undefined && TLS_CERT_FILE !== undefined) throw new SettingsError('Invalid setting TLS_KEY_FILE: must be set with TLS_CERT_FILE');
    return result.data;
  }
  const issue = result.error.issues[0]!;
  throw new SettingsError(`Invalid setting ${issue.path.join('.')}: ${issue.message}`);
}

/** For a process's start: a bad setting prints one line and exits. */
export function loadSettingsOrExit(env: Record<string, string | undefined> = process.env): Settings {
  try {
    return parseSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Which adapters a process uses, chosen by which URLs are set. */
export function describeAdapters(settings: Settings) {
  return {
    bus: settings.AMQP_URL ? 'amqp' : 'in-process',
    store: settings.MONGO_URL ? 'mongodb' : 'sqlite',
    badges: settings.REDIS_URL ? 'redis' : 'sqlite',
    notifications: settings.FCM_SERVICE_ACCOUNT || settings.GOOGLE_APPLICATION_CREDENTIALS ? 'fcm' : 'log',
    sqliteBinding: settings.SQLITE_BINDING,
  } as const;
}
