import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, type Logger } from '@formcast/platform';
import { logModeChanges, makePrivateFolder, privateFileMode, tightenIfPresent } from '@formcast/storage';

/**
 * The admin token: the ADMIN_TOKEN setting when given; otherwise the one generated at the
 * first start and kept in DATA_DIR/admin-token (0600, in a 0700 DATA_DIR), printed once.
 * A token file or DATA_DIR found readable by others is tightened, and that logged.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string, logger: Logger): string {
  if (configured) return configured;
  const file = join(dataDir, 'admin-token');
  const changes = makePrivateFolder(dataDir);
  if (existsSync(file)) {
    logModeChanges(logger, [...changes, ...tightenIfPresent(file, privateFileMode)]);
    return readFileSync(file, 'utf8').trim();
  }
  logModeChanges(logger, changes);
  const token = generateSecret();
  writeFileSync(file, `${token}\n`, { mode: privateFileMode, flag: 'wx' });
  chmodSync(file, privateFileMode);
  // Printed, not logged: log lines redact secrets, and this is the one time it is shown.
  process.stdout.write(`\nGenerated an admin token (kept in ${file}):\n  ${token}\nUse it as: Authorization: Bearer <token>\n\n`);
  logger.info({ file }, 'admin token generated');
  return token;
}
