import { ExpiringCache } from '@formcast/platform';

/**
 * API token hash → organization, for a few seconds, so an integrator's stream of requests
 * costs one authentication round trip, not one per request. A revocation clears the
 * organization's entries at once on the gateway that hears of it (`directory.token.revoked`);
 * with several gateway replicas the others may accept the token for up to `ttlMs` more.
 */
export class TokenCache {
  private readonly organizations: ExpiringCache<string, number>;

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.organizations = new ExpiringCache(options);
  }

  get(tokenHash: string): number | undefined {
    return this.organizations.get(tokenHash);
  }

  set(tokenHash: string, orgId: number): void {
    this.organizations.set(tokenHash, orgId);
  }

  forgetOrganization(orgId: number): void {
    this.organizations.deleteWhere((known) => known === orgId);
  }
}
