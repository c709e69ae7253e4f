import type { SigningSecrets } from './records';
import { generateSigningSecret } from './signing';

export function newSigningSecrets(): SigningSecrets {
  return { current: generateSigningSecret(), retired: [] };
}

/** The secrets that sign at `now`: the current one first, then those retired whose overlap has not ended. */
export function secretsInForce(secrets: SigningSecrets, now: number): string[] {
  return [secrets.current, ...secrets.retired.filter((retired) => Date.parse(retired.expiresAt) > now).map((retired) => retired.secret)];
}

/**
 * A new current secret; the one it replaces signs beside it for `overlapMs` (none when 0).
 * Retired secrets whose overlap is over are dropped, so the list stays short.
 */
export function rotateSecrets(secrets: SigningSecrets, now: number, overlapMs: number): SigningSecrets {
  const stillSigning = secrets.retired.filter((retired) => Date.parse(retired.expiresAt) > now);
  const retired = overlapMs > 0 ? [{ secret: secrets.current, expiresAt: new Date(now + overlapMs).toISOString() }, ...stillSigning] : stillSigning;
  return { current: generateSigningSecret(), retired };
}
