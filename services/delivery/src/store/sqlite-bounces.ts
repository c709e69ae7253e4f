import type { SqliteQueries } from '@formcast/storage';
import type { BounceList } from './delivery-store';

/** An organization's bounce list (addresses an SMTP server refused for good): part of SqliteDeliveryStore. */
export class SqliteBounces implements BounceList {
  constructor(private readonly sql: SqliteQueries) {}

  async recordBounces(orgId: number, addresses: string[], reason: string, at: string): Promise<void> {
    if (addresses.length === 0) return;
    this.sql.write(() => {
      for (const address of new Set(addresses.map((a) => a.toLowerCase()))) {
        this.sql.run(
          `INSERT INTO bounced_addresses (org_id, address, bounced_at, reason) VALUES (?, ?, ?, ?)
           ON CONFLICT (org_id, address) DO UPDATE SET bounced_at = excluded.bounced_at, reason = excluded.reason`,
          orgId,
          address,
          at,
          reason.slice(0, 1024),
        );
      }
    });
  }

  async bouncedAmong(orgId: number, addresses: string[], since: string): Promise<string[]> {
    if (addresses.length === 0) return [];
    const rows = this.sql.all<{ address: string }>(
      'SELECT address FROM bounced_addresses WHERE org_id = ? AND address IN (SELECT value FROM json_each(?)) AND bounced_at >= ?',
      orgId,
      JSON.stringify(addresses.map((a) => a.toLowerCase())),
      since,
    );
    const bounced = new Set(rows.map((row) => row.address));
    return addresses.filter((address) => bounced.has(address.toLowerCase()));
  }
}
