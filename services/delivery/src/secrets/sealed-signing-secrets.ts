import type { SigningSecrets } from '../domain/records';
import type { SecretCipher } from './secret-cipher';

/** A destination's secrets as stored: the current one and each retired one sealed. */
export function sealSigningSecrets(cipher: SecretCipher, secrets: SigningSecrets): SigningSecrets {
  return { current: cipher.seal(secrets.current), retired: secrets.retired.map((retired) => ({ ...retired, secret: cipher.seal(retired.secret) })) };
}

export function openSigningSecrets(cipher: SecretCipher, stored: SigningSecrets): SigningSecrets {
  return { current: cipher.open(stored.current), retired: stored.retired.map((retired) => ({ ...retired, secret: cipher.open(retired.secret) })) };
}

/** Whether any of a destination's stored secrets is in clear or under another key than the current one. */
export function needSealing(cipher: SecretCipher, stored: SigningSecrets): boolean {
  return cipher.needsSealing(stored.current) || stored.retired.some((retired) => cipher.needsSealing(retired.secret));
}
