import { resolve } from 'node:path';

export interface StartupBannerFacts {
  protocol: 'http' | 'https';
  port: number;
  /** The ADMIN_TOKEN setting, when given; otherwise the token is in DATA_DIR/admin-token. */
  configuredAdminToken: string | undefined;
  dataDir: string;
}

/**
 * What `npm start` prints once it serves: the address to call and where the admin token
 * is. Printed, not logged, so it reads plainly between the JSON log lines.
 */
export function startupBanner(facts: StartupBannerFacts): string {
  const address = `${facts.protocol}://localhost:${facts.port}`;
  const token = facts.configuredAdminToken
    ? 'from ADMIN_TOKEN'
    : `in ${resolve(facts.dataDir, 'admin-token')}`;
  return `\nFormcast is serving ${address}\nAdmin token: ${token} (Authorization: Bearer <token> for /admin)\n\n`;
}
