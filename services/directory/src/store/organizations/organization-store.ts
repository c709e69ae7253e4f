import type { ApiToken, ApiTokenChange, NewApiToken, Organization, OrganizationFounding } from '../../domain/records';

/**
 * Organizations and their API tokens (see `DirectoryStore` for the errors every part throws).
 * Uniqueness is the store's: a second organization with an enrollment code hash, or a
 * second token with a hash, is a 'conflict'. Enrollment codes and tokens are kept only as
 * their hashes, and looked up by them.
 */
export interface OrganizationStore {
  /** Saves the organization, its Default group and its first token, together. */
  create(founding: OrganizationFounding): Promise<{ organization: Organization; token: ApiToken }>;
  get(orgId: number): Promise<Organization | null>;
  /** Every organization, ascending by id. */
  list(): Promise<Organization[]>;
  findByEnrollmentCodeHash(enrollmentCodeHash: string): Promise<Organization | null>;
  /** The organization's enrollment code from now on (its hash); the one before stops matching. Unknown organization: 'not_found'. */
  replaceEnrollmentCode(orgId: number, enrollmentCodeHash: string): Promise<Organization>;
  /** Unknown organization: 'not_found'. */
  addToken(orgId: number, token: NewApiToken): Promise<ApiToken>;
  /** Ascending by id. */
  listTokens(orgId: number): Promise<ApiToken[]>;
  /** Saves what `decide` makes of the token, in one transaction. Unknown token: 'not_found'. */
  changeToken(orgId: number, tokenId: number, decide: (token: ApiToken) => ApiTokenChange): Promise<ApiToken>;
  /** The organization of a live (not revoked) token, by the token's hash. */
  findOrgIdByTokenHash(tokenHash: string): Promise<number | null>;
}
