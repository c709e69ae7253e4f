import { defaultGroup } from './group-rules';
import type { ApiToken, ApiTokenChange, NewApiToken, OrganizationFounding } from './records';

/**
 * An enrollment code's random bytes: 96 bits, 16 characters, short enough to type into a
 * device. Kept as its SHA-256 like API tokens: a random code needs no salt or slow hash,
 * there is no dictionary to guess it from.
 */
export const enrollmentCodeBytes = 12;

/** An organization is founded with its Default group and a first API token, all at once. */
export function foundOrganization(
  input: { name: string; enrollmentCodeHash: string; tokenHash: string },
  now: string,
): OrganizationFounding {
  return {
    organization: { name: input.name, enrollmentCodeHash: input.enrollmentCodeHash, createdAt: now },
    defaultGroup,
    token: newApiToken(input.tokenHash, 'first token', now),
  };
}

/** A token authenticates from its issue until it is revoked. */
export function newApiToken(tokenHash: string, label: string, now: string): NewApiToken {
  return { tokenHash, label, createdAt: now, revokedAt: null };
}

/** Revoking a token that is revoked already keeps its first revocation time. */
export function revokeToken(token: ApiToken, now: string): ApiTokenChange {
  return { revokedAt: token.revokedAt ?? now };
}
