import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, exitCodes } from './exit-codes';

/** Where the admin API is and the token it takes. */
export interface Connection {
  url: string;
  adminToken: string;
}

export interface ConnectionOptions {
  url?: string;
  adminToken?: string;
  dataDir?: string;
}

export const defaultUrl = 'http://localhost:3000';

/**
 * `--url`, else FORMCAST_URL, else http://localhost:3000. `--admin-token`, else
 * FORMCAST_ADMIN_TOKEN, else the token embedded mode generated into DATA_DIR/admin-token
 * (`--data-dir`, else DATA_DIR, else ./data, as `npm start` uses).
 */
export function resolveConnection(options: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): Connection {
  const url = options.url ?? env['FORMCAST_URL'] ?? defaultUrl;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(exitCodes.usage, `--url ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(exitCodes.usage, `--url ${url} is not http(s)`);
  return { url: url.replace(/\/+$/, ''), adminToken: options.adminToken ?? env['FORMCAST_ADMIN_TOKEN'] ?? tokenFromDataDir(options.dataDir ?? env['DATA_DIR'] ?? './data') };
}

function tokenFromDataDir(dataDir: string): string {
  const file = join(dataDir, 'admin-token');
  let token: string;
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch {
    throw new CliError(
      exitCodes.usage,
      `No admin token: give --admin-token or FORMCAST_ADMIN_TOKEN (none found in ${file})`,
    );
  }
  if (!token) throw new CliError(exitCodes.usage, `No admin token: ${file} is empty`);
  return token;
}
