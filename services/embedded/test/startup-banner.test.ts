import { join, resolve } from 'node:path';
import { startupBanner } from '../src/startup-banner';

describe('what npm start prints once it serves', () => {
  it('names the address, with its protocol and port, and the admin token file as an absolute path', () => {
    const banner = startupBanner({ protocol: 'http', port: 3000, configuredAdminToken: undefined, dataDir: './data' });
    expect(banner).toContain('Formcast is serving http://localhost:3000\n');
    expect(banner).toContain(`Admin token: in ${join(resolve('data'), 'admin-token')} (`);
  });

  it('says https when it serves TLS, and that the token comes from ADMIN_TOKEN when set', () => {
    const banner = startupBanner({ protocol: 'https', port: 8443, configuredAdminToken: 'a-token-of-my-own-123', dataDir: '/var/formcast' });
    expect(banner).toContain('Formcast is serving https://localhost:8443\n');
    expect(banner).toContain('Admin token: from ADMIN_TOKEN');
    expect(banner).not.toContain('a-token-of-my-own-123');
    expect(banner).not.toContain('/var/formcast');
  });
});
