import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseSettings } from '@formcast/platform';
import { SecretCipher, secretCipherFromSettings, SecretsKeyError } from '../../src/secrets';

const logger = pino({ level: 'silent' });

describe('the key of signing secrets at rest', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'delivery-key-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const settings = (env: Record<string, string> = {}) => parseSettings({ DATA_DIR: dataDir, ...env });

  it('is generated once into DATA_DIR (0600, nothing else left there), and read back at the next start', () => {
    const first = secretCipherFromSettings(settings(), logger);
    const file = join(dataDir, 'delivery-secrets-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(['delivery-secrets-key']);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    const again = secretCipherFromSettings(settings(), logger);
    expect(again.currentKeyId).toBe(first.currentKeyId);
    expect(again.open(first.seal('whsec_abc'))).toBe('whsec_abc');
  });

  it('takes DELIVERY_SECRETS_KEY over any file, and refuses a file that holds no key', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(secretCipherFromSettings(settings({ DELIVERY_SECRETS_KEY: key }), logger).currentKeyId).toBe(new SecretCipher(Buffer.alloc(32, 1)).currentKeyId);
    writeFileSync(join(dataDir, 'delivery-secrets-key'), 'garbage\n');
    expect(() => secretCipherFromSettings(settings(), logger)).toThrow(SecretsKeyError);
    expect(() => secretCipherFromSettings(settings(), logger)).toThrow(/does not hold 32 bytes in Base64: restore the key it held, or set DELIVERY_SECRETS_KEY/);
  });

  it('tells an altered sealed secret from one sealed with another key', () => {
    const cipher = new SecretCipher(Buffer.alloc(32, 1));
    const sealed = cipher.seal('whsec_abc');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(cipher.seal('whsec_abc')).not.toBe(sealed); // a fresh IV each time
    const altered = sealed.slice(0, -4) + (sealed.endsWith('AAA=') ? 'BBB=' : 'AAA=');
    expect(() => cipher.open(altered)).toThrow(/does not authenticate: the stored value was altered/);
    expect(() => new SecretCipher(Buffer.alloc(32, 2)).open(sealed)).toThrow(/sealed with key [0-9a-f]{8}, not with DELIVERY_SECRETS_KEY/);
  });

  it('opens a sealed secret it has opened before from memory, and still refuses any other text it was not given', () => {
    const cipher = new SecretCipher(Buffer.alloc(32, 1));
    const sealed = cipher.seal('whsec_abc');
    expect(cipher.open(sealed)).toBe('whsec_abc');
    expect(cipher.open(sealed)).toBe('whsec_abc');
    // Opened once, its altered twin is still checked: the memory is keyed by the whole sealed text.
    const altered = sealed.slice(0, -4) + (sealed.endsWith('AAA=') ? 'BBB=' : 'AAA=');
    expect(() => cipher.open(altered)).toThrow(/does not authenticate/);
    // Bounded: past its size the oldest is forgotten, and opened again from the sealed text.
    const many = Array.from({ length: 1100 }, (_, i) => cipher.seal(`whsec_${i}`));
    many.forEach((one, i) => expect(cipher.open(one)).toBe(`whsec_${i}`));
    expect(cipher.open(many[0]!)).toBe('whsec_0');
    expect(cipher.open(sealed)).toBe('whsec_abc');
  });
});
