import { uniqueName } from '@formcast/testing';
import { foundOrganization, newApiToken } from '../../../src/domain/organization-rules';
import { type DirectoryContractFixtures, now } from '../contract-fixtures';

/** The organizations and API tokens part of the directory store contract (see describeDirectoryStoreContract). */
export function describeOrganizationStoreContract(f: DirectoryContractFixtures): void {
  const { unknownId, isoTimestamp, newOrganization, newOrgId, revokeToken, expectAppError } = f;

  describe('organizations and API tokens', () => {
    it('creates an organization with its Default group and first token', async () => {
      const createdAt = now();
      const { organization, token } = await f.store.organizations.create(
        foundOrganization({ name: 'Acme Surveys', enrollmentCodeHash: 'enroll-hash-1', tokenHash: 'hash-1' }, createdAt),
      );

      expect(organization).toEqual({ id: expect.any(Number), name: 'Acme Surveys', createdAt });
      expect(token).toEqual({ id: expect.any(Number), orgId: organization.id, label: 'first token', createdAt, revokedAt: null });
      expect(await f.store.organizations.get(organization.id)).toEqual(organization);
      expect(await f.store.organizations.findByEnrollmentCodeHash('enroll-hash-1')).toEqual(organization);
      expect(await f.store.groups.list(organization.id)).toEqual([
        { id: expect.any(Number), orgId: organization.id, name: 'Default', isDefault: true, formIds: [], deviceIds: [], tags: [] },
      ]);
      expect(await f.store.organizations.listTokens(organization.id)).toEqual([token]);
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-1')).toBe(organization.id);
    });

    it('gives each organization its own integer id', async () => {
      const first = await newOrgId();
      const second = await newOrgId();
      expect(Number.isInteger(first)).toBe(true);
      expect(Number.isInteger(second)).toBe(true);
      expect(second).not.toBe(first);
    });

    it('lists every organization ascending by id, none in an empty store', async () => {
      expect(await f.store.organizations.list()).toEqual([]);
      const first = await newOrganization('First');
      const second = await newOrganization('Second');

      expect(await f.store.organizations.list()).toEqual([first.organization, second.organization]);
    });

    it('answers null for an unknown organization, enrollment code or token hash', async () => {
      await newOrganization();
      expect(await f.store.organizations.get(unknownId)).toBeNull();
      expect(await f.store.organizations.findByEnrollmentCodeHash('no-such-code-hash')).toBeNull();
      expect(await f.store.organizations.findOrgIdByTokenHash('no-such-hash')).toBeNull();
    });

    it('refuses a second organization with the same enrollment code hash, creating nothing', async () => {
      const first = await f.store.organizations.create(
        foundOrganization({ name: 'First', enrollmentCodeHash: 'SHARED', tokenHash: 'hash-first' }, now()),
      );
      await expectAppError(
        f.store.organizations.create(foundOrganization({ name: 'Second', enrollmentCodeHash: 'SHARED', tokenHash: 'hash-second' }, now())),
        'conflict',
        'This enrollment code is already in use',
      );
      expect(await f.store.organizations.findByEnrollmentCodeHash('SHARED')).toEqual(first.organization);
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-second')).toBeNull();
    });

    it('replaces the enrollment code: the new hash finds the organization, the old one no longer does', async () => {
      const { organization } = await f.store.organizations.create(
        foundOrganization({ name: 'Rotating', enrollmentCodeHash: 'code-hash-old', tokenHash: uniqueName('hash') }, now()),
      );
      const other = await newOrganization('Other');

      expect(await f.store.organizations.replaceEnrollmentCode(organization.id, 'code-hash-new')).toEqual(organization);

      expect(await f.store.organizations.findByEnrollmentCodeHash('code-hash-new')).toEqual(organization);
      expect(await f.store.organizations.findByEnrollmentCodeHash('code-hash-old')).toBeNull();
      expect(await f.store.organizations.get(organization.id)).toEqual(organization);
      expect(await f.store.organizations.get(other.organization.id)).toEqual(other.organization);
    });

    it('refuses to replace the enrollment code of an unknown organization, or with a hash another has', async () => {
      const { organization } = await f.store.organizations.create(
        foundOrganization({ name: 'Mine', enrollmentCodeHash: 'code-hash-mine', tokenHash: uniqueName('hash') }, now()),
      );
      await f.store.organizations.create(
        foundOrganization({ name: 'Theirs', enrollmentCodeHash: 'code-hash-theirs', tokenHash: uniqueName('hash') }, now()),
      );

      await expectAppError(
        f.store.organizations.replaceEnrollmentCode(unknownId, 'code-hash-orphan'),
        'not_found',
        `Organization ${unknownId} does not exist`,
      );
      await expectAppError(
        f.store.organizations.replaceEnrollmentCode(organization.id, 'code-hash-theirs'),
        'conflict',
        'This enrollment code is already in use',
      );
      expect(await f.store.organizations.findByEnrollmentCodeHash('code-hash-mine')).toEqual(organization);
      expect(await f.store.organizations.findByEnrollmentCodeHash('code-hash-orphan')).toBeNull();
    });

    it('adds API tokens that authenticate, listed ascending by id', async () => {
      const { organization, token: first } = await newOrganization();
      const createdAt = now();
      const second = await f.store.organizations.addToken(organization.id, newApiToken('hash-second', 'backup', createdAt));

      expect(second).toEqual({ id: expect.any(Number), orgId: organization.id, label: 'backup', createdAt, revokedAt: null });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-second')).toBe(organization.id);
      expect(await f.store.organizations.listTokens(organization.id)).toEqual([first, second]);
    });

    it('refuses a token hash another token has', async () => {
      const { organization } = await newOrganization();
      await f.store.organizations.addToken(organization.id, newApiToken('hash-twice', 'first', now()));
      await expectAppError(
        f.store.organizations.addToken(organization.id, newApiToken('hash-twice', 'second', now())),
        'conflict',
        'This API token already exists',
      );
      expect((await f.store.organizations.listTokens(organization.id)).map((t) => t.label)).toEqual(['first token', 'first']);
    });

    it('refuses a token for an unknown organization', async () => {
      await expectAppError(
        f.store.organizations.addToken(unknownId, newApiToken('hash-x', 'x', now())),
        'not_found',
        `Organization ${unknownId} does not exist`,
      );
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-x')).toBeNull();
    });

    it('stops finding a revoked token by its hash, and keeps the others', async () => {
      const { organization, token } = await f.store.organizations.create(
        foundOrganization({ name: 'Acme', enrollmentCodeHash: uniqueName('enroll'), tokenHash: 'hash-revoked' }, now()),
      );
      const kept = await f.store.organizations.addToken(organization.id, newApiToken('hash-kept', 'new', now()));

      const revoked = await revokeToken(organization.id, token.id);

      expect(revoked).toEqual({ ...token, revokedAt: isoTimestamp });
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-revoked')).toBeNull();
      expect(await f.store.organizations.findOrgIdByTokenHash('hash-kept')).toBe(organization.id);
      expect(await f.store.organizations.listTokens(organization.id)).toEqual([revoked, kept]);
    });

    it('keeps the first revocation time when a token is revoked twice', async () => {
      const { organization, token } = await newOrganization();
      await revokeToken(organization.id, token.id, '2030-01-01T00:00:00.000Z');
      await revokeToken(organization.id, token.id, '2031-01-01T00:00:00.000Z');
      expect(await f.store.organizations.listTokens(organization.id)).toEqual([
        { ...token, revokedAt: '2030-01-01T00:00:00.000Z' },
      ]);
    });

    it('refuses to revoke an unknown token', async () => {
      const orgId = await newOrgId();
      await expectAppError(revokeToken(orgId, unknownId), 'not_found', `API token ${unknownId} does not exist`);
    });
  });
}
