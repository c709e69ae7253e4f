import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, exitCodes } from '../src/exit-codes';
import { defaultUrl, resolveConnection } from '../src/connection';

describe('resolveConnection', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-cli-connection-'));
  writeFileSync(join(dataDir, 'admin-token'), 'token-from-file\n');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('takes the flags first', () => {
    const env = { FORMCAST_URL: 'http://env:1', FORMCAST_ADMIN_TOKEN: 'env-token', DATA_DIR: dataDir };
    expect(resolveConnection({ url: 'http://flag:2/', adminToken: 'flag-token' }, env)).toEqual({ url: 'http://flag:2', adminToken: 'flag-token' });
  });

  it('then the environment', () => {
    const env = { FORMCAST_URL: 'https://env.example', FORMCAST_ADMIN_TOKEN: 'env-token', DATA_DIR: dataDir };
    expect(resolveConnection({}, env)).toEqual({ url: 'https://env.example', adminToken: 'env-token' });
  });

  it('then localhost:3000 and the token embedded mode wrote into DATA_DIR (or --data-dir)', () => {
    expect(resolveConnection({}, { DATA_DIR: dataDir })).toEqual({ url: defaultUrl, adminToken: 'token-from-file' });
    expect(resolveConnection({ dataDir }, {})).toEqual({ url: defaultUrl, adminToken: 'token-from-file' });
  });

  it('is a usage error without any token, or with a URL that is not http(s)', () => {
    const empty = mkdtempSync(join(tmpdir(), 'formcast-cli-none-'));
    try {
      expect(() => resolveConnection({}, { DATA_DIR: empty })).toThrow(new CliError(exitCodes.usage, `No admin token: give --admin-token or FORMCAST_ADMIN_TOKEN (none found in ${join(empty, 'admin-token')})`));
      expect(() => resolveConnection({ url: 'ftp://x', adminToken: 't' }, {})).toThrow('is not http(s)');
      expect(() => resolveConnection({ url: 'not a url', adminToken: 't' }, {})).toThrow('is not a URL');
    } finally {
      rmSync(empty, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
