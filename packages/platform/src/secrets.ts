import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random secret (API token, device secret), URL-safe. */
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How tokens and secrets are stored and looked up: their SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two secrets. */
export function secretsEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
