import { z } from 'zod';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/** Every setting of every process, with its environment name, default and meaning. */
export const settingsSchema = z.object({
  /** PORT: the HTTP port of the gateway (0 picks a free one). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** DATA_DIR: where embedded mode keeps its SQLite files and generated admin token. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** ADMIN_TOKEN: guards /admin; embedded mode generates one at first start when unset. */
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  /** AMQP_URL: RabbitMQ; unset = in-process bus. */
  AMQP_URL: optionalUrl(['amqp://', 'amqps://']),
  /** MONGO_URL: MongoDB; unset = SQLite under DATA_DIR. */
  MONGO_URL: optionalUrl(['mongodb://', 'mongodb+srv://']),
  /** REDIS_URL: Redis for badges; unset = SQLite. */
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  /** LOG_LEVEL: pino level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** FORM_NAMESPACE_BASE: the base of generated form namespaces (`<base>/xforms/<uuid>`). */
  FORM_NAMESPACE_BASE: z.string().url().default('http://formcast.local'),
  /** COMMAND_TIMEOUT_MS: how long the gateway waits for a command's reply before 504. */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
  /** BODY_LIMIT_BYTES: the largest request body the gateway reads (413 above it). */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
});

export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {}

/** Reads and validates settings; throws SettingsError with one line naming the bad setting. */
export function parseSettings(env: Record<string, string | undefined> = process.env): Settings {
  const result = settingsSchema.safeParse(env);
  if (result.success) return result.data;
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
  } as const;
}
