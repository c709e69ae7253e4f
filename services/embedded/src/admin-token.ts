import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, type Logger } from '@formcast/platform';

/**
 * The admin token: the ADMIN_TOKEN setting when given; otherwise the one generated at the
 * first start and kept in DATA_DIR/admin-token (readable by its owner only), printed once.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string, logger: Logger): string {
  if (configured) return configured;
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = generateSecret();
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  // Printed, not logged: log lines redact secrets, and this is the one time it is shown.
  process.stdout.write(`\nGenerated an admin token (kept in ${file}):\n  ${token}\nUse it as: Authorization: Bearer <token>\n\n`);
  logger.info({ file }, 'admin token generated');
  return token;
}
