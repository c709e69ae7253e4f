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

/** Formcast keeps no short name: the name in lower case, each run of other characters than letters and digits as `_`. */
export function shortNameOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
