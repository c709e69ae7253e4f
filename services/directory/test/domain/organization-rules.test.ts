import { foundOrganization, newApiToken, revokeToken } from '../../src/domain/organization-rules';

const now = '2030-05-01T10:00:00.000Z';

describe('foundOrganization', () => {
  it('founds an organization with its Default group and a first API token', () => {
    expect(foundOrganization({ name: 'Acme', enrollmentCodeHash: 'code-hash', tokenHash: 'hash' }, now)).toEqual({
      organization: { name: 'Acme', enrollmentCodeHash: 'code-hash', createdAt: now },
      defaultGroup: { name: 'Default', isDefault: true },
      token: { tokenHash: 'hash', label: 'first token', createdAt: now, revokedAt: null },
    });
  });
});

describe('API tokens', () => {
  const token = { id: 3, orgId: 7, label: 'ci', createdAt: now, revokedAt: null };

  it('are live when issued', () => {
    expect(newApiToken('hash', 'ci', now)).toEqual({ tokenHash: 'hash', label: 'ci', createdAt: now, revokedAt: null });
  });

  it('are revoked as of the time given', () => {
    expect(revokeToken(token, '2030-06-01T00:00:00.000Z')).toEqual({ revokedAt: '2030-06-01T00:00:00.000Z' });
  });

  it('keep their first revocation time when revoked again', () => {
    const revoked = { ...token, revokedAt: '2030-06-01T00:00:00.000Z' };
    expect(revokeToken(revoked, '2030-07-01T00:00:00.000Z')).toEqual({ revokedAt: '2030-06-01T00:00:00.000Z' });
  });
});
