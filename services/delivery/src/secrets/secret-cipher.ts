import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { BoundedCache } from '@formcast/platform';

/** How a sealed secret starts: the format's version, then the key's id, the IV and the ciphertext with its tag. */
const sealedPrefix = 'enc:v1:';
const ivBytes = 12;
const tagBytes = 16;
/** Opened secrets kept by their sealed text: every submission event reads its form's destinations. */
const openedCacheSize = 1024;

/** A signing secret that cannot be opened with the keys given: the process must not sign with anything. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/** A short, public name of a key (the first 8 hex digits of a hash of it), stored beside what it sealed. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('formcast-delivery-secrets\0').update(key).digest('hex').slice(0, 8);
}

/**
 * Destinations' signing secrets at rest: AES-256-GCM under DELIVERY_SECRETS_KEY, each with a
 * fresh 96-bit IV. A sealed value names its key's id, so one sealed with another key is told
 * apart from one altered (the tag fails). The previous key (a key rotation) only opens.
 */
export class SecretCipher {
  readonly currentKeyId: string;
  private readonly keys: Map<string, Buffer>;
  /** Sealed text → secret. A sealed text has a fresh IV, so it names one secret under these keys. */
  private readonly opened = new BoundedCache<string, string>(openedCacheSize);

  /** `currentName` says where the current key came from, in errors (the setting, or the generated key's file). */
  constructor(
    current: Buffer,
    previous?: Buffer,
    private readonly currentName = 'DELIVERY_SECRETS_KEY',
  ) {
    if (current.length !== 32 || (previous && previous.length !== 32)) throw new SecretsKeyError('A secrets key must be 32 bytes');
    this.currentKeyId = keyId(current);
    this.keys = new Map([[this.currentKeyId, current]]);
    if (previous) this.keys.set(keyId(previous), previous);
  }

  seal(secret: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${sealedPrefix}${this.currentKeyId}:${iv.toString('base64')}:${sealed.toString('base64')}`;
  }

  /**
   * The secret `stored` holds. A value stored before secrets were sealed (clear, `whsec_…`)
   * is given as it is, until `needsSealing` has it sealed. Throws SecretsKeyError when it was
   * sealed with a key not given here, or does not authenticate.
   */
  open(stored: string): string {
    if (!stored.startsWith(sealedPrefix)) return stored;
    return this.opened.getOrMake(stored, () => this.openSealed(stored));
  }

  private openSealed(stored: string): string {
    const [id, iv, sealed] = stored.slice(sealedPrefix.length).split(':');
    const key = id === undefined ? undefined : this.keys.get(id);
    if (!key || iv === undefined || sealed === undefined) {
      throw new SecretsKeyError(
        `A destination's signing secret was sealed with key ${id ?? '?'}, not with ${this.currentName} (key ${this.currentKeyId})` +
          `${this.keys.size > 1 ? ' nor DELIVERY_SECRETS_PREVIOUS_KEY' : ''}: start with the key it was sealed with` +
          ' (give the new one as DELIVERY_SECRETS_KEY and the old one as DELIVERY_SECRETS_PREVIOUS_KEY to rotate)',
      );
    }
    const bytes = Buffer.from(sealed, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - tagBytes)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`A destination's signing secret sealed with key ${id} does not authenticate: the stored value was altered`);
    }
  }

  /** Whether `stored` is in clear or sealed with a key other than the current one (it is sealed again at start). */
  needsSealing(stored: string): boolean {
    return !stored.startsWith(`${sealedPrefix}${this.currentKeyId}:`);
  }
}
