interface Entry {
  orgId: number;
  expiresAt: number;
}

/**
 * API token hash → organization, for a few seconds, so an integrator's stream of requests
 * costs one authentication round trip, not one per request. A revocation clears the
 * organization's entries at once on the gateway that hears of it (`directory.token.revoked`);
 * with several gateway replicas the others may accept the token for up to `ttlMs` more.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number }) {}

  get(tokenHash: string): number | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.orgId;
    this.entries.delete(tokenHash);
    return undefined;
  }

  set(tokenHash: string, orgId: number): void {
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { orgId, expiresAt: Date.now() + this.options.ttlMs });
  }

  forgetOrganization(orgId: number): void {
    for (const [hash, entry] of this.entries) if (entry.orgId === orgId) this.entries.delete(hash);
  }
}
