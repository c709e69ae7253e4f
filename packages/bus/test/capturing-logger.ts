import type { Logger } from '@formcast/platform';
import pino from 'pino';

/** A logger at the most verbose level that keeps every line it writes, for assertions. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}
