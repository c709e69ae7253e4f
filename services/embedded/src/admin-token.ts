import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, type Logger } from '@formcast/platform';
import { logModeChanges, makePrivateFolder, privateFileMode, tightenIfPresent } from '@formcast/storage';

/** The admin token a start uses, and `keep()`, which makes a newly generated one last. */
export interface AdminToken {
  token: string;
  /**
   * Writes a newly generated token to DATA_DIR/admin-token and prints it, the one time it is
   * shown; nothing for a configured or kept token. Called once the start has succeeded, so a
   * start that fails spends no token: the next one generates its own.
   */
  keep(): void;
}

/**
 * The admin token: the ADMIN_TOKEN setting when given; otherwise the one kept in
 * DATA_DIR/admin-token (0600, in a 0700 DATA_DIR) by an earlier start, or a new one that
 * `keep()` writes and prints. A token file or DATA_DIR found readable by others is
 * tightened, and that logged.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string, logger: Logger): AdminToken {
  if (configured) return { token: configured, keep: () => {} };
  const file = join(dataDir, 'admin-token');
  const changes = makePrivateFolder(dataDir);
  if (existsSync(file)) {
    logModeChanges(logger, [...changes, ...tightenIfPresent(file, privateFileMode)]);
    return { token: readFileSync(file, 'utf8').trim(), keep: () => {} };
  }
  logModeChanges(logger, changes);
  const token = generateSecret();
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    writeFileSync(file, `${token}\n`, { mode: privateFileMode, flag: 'wx' });
    chmodSync(file, privateFileMode);
    // Printed, not logged: log lines redact secrets, and this is the one time it is shown.
    process.stdout.write(`\nGenerated an admin token (kept in ${file}):\n  ${token}\nUse it as: Authorization: Bearer <token>\n\n`);
    logger.info({ file }, 'admin token generated');
  };
  return { token, keep };
}
