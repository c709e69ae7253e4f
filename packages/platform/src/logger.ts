import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Paths pino blanks out wherever they appear in a logged object. */
export const redactedPaths = [
  'authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.token',
  '*.api_token',
  '*.apiToken',
  '*.device_secret',
  '*.deviceSecret',
  '*.secret',
  '*.push_token',
  '*.pushToken',
  '*.file_data',
  '*.fileData',
  'password',
  'token',
  'api_token',
  'device_secret',
  'secret',
];

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    level: options.level ?? 'info',
    name: options.name,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { pid: process.pid },
  });
}

/** A child logger that stamps the request id on every line. */
export function withRequestId(logger: Logger, requestId: string): Logger {
  return logger.child({ requestId });
}
