import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Logger, Settings } from '@formcast/platform';
import { logModeChanges, makePrivateFolder, privateFileMode, tightenIfPresent } from '@formcast/storage';
import { SecretCipher, SecretsKeyError } from './secret-cipher';

/** Where a key generated for SQLite is kept, under DATA_DIR. */
export const generatedKeyFileName = 'delivery-secrets-key';

/**
 * The cipher of destinations' signing secrets, from DELIVERY_SECRETS_KEY (and
 * DELIVERY_SECRETS_PREVIOUS_KEY). Unset: with MongoDB, refused (every replica must share the
 * key, so it cannot be made here); with SQLite, the key generated at the first start into
 * DATA_DIR/delivery-secrets-key (0600, in a 0700 folder), and logged as generated.
 */
export function secretCipherFromSettings(
  settings: Pick<Settings, 'DELIVERY_SECRETS_KEY' | 'DELIVERY_SECRETS_PREVIOUS_KEY' | 'MONGO_URL' | 'DATA_DIR'>,
  logger: Logger,
): SecretCipher {
  const previous = settings.DELIVERY_SECRETS_PREVIOUS_KEY ? Buffer.from(settings.DELIVERY_SECRETS_PREVIOUS_KEY, 'base64') : undefined;
  if (settings.DELIVERY_SECRETS_KEY) return new SecretCipher(Buffer.from(settings.DELIVERY_SECRETS_KEY, 'base64'), previous);
  if (settings.MONGO_URL) {
    throw new SecretsKeyError(
      'DELIVERY_SECRETS_KEY is required with MONGO_URL: every delivery replica seals signing secrets with the same key (`openssl rand -base64 32`)',
    );
  }
  const file = join(settings.DATA_DIR, generatedKeyFileName);
  return new SecretCipher(generatedKey(file, settings.DATA_DIR, logger), previous, `the key in ${file}`);
}

function generatedKey(file: string, dataDir: string, logger: Logger): Buffer {
  const changes = makePrivateFolder(dataDir);
  if (!existsSync(file)) {
    // Written whole under another name, then linked into place: a replica starting beside
    // this one on the same DATA_DIR reads the whole key or none, and one of the two wins.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: privateFileMode, flag: 'wx' });
    chmodSync(draft, privateFileMode);
    try {
      linkSync(draft, file);
      logger.info({ file }, 'generated the key that encrypts signing secrets at rest (DELIVERY_SECRETS_KEY unset); keep it with the data');
    } catch (error) {
      // Another replica on the same DATA_DIR made it first: use that one.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  logModeChanges(logger, [...changes, ...tightenIfPresent(file, privateFileMode)]);
  const text = readFileSync(file, 'utf8').trim();
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || key.length !== 32) {
    throw new SecretsKeyError(`${file} does not hold 32 bytes in Base64: restore the key it held, or set DELIVERY_SECRETS_KEY`);
  }
  return key;
}
