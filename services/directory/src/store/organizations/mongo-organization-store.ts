import { apiTokenNotFound, organizationNotFound } from '../../domain/errors';
import type { ApiToken, ApiTokenChange, NewApiToken, Organization, OrganizationFounding } from '../../domain/records';
import type { MongoDirectoryDb } from '../mongo-directory-db';
import type { ApiTokenDoc, GroupDoc, OrganizationDoc } from '../mongo-models';
import type { OrganizationStore } from './organization-store';

/** Organizations and API tokens on the directory's MongoDB database (see MongoDirectoryStore). */
export class MongoOrganizationStore implements OrganizationStore {
  constructor(private readonly db: MongoDirectoryDb) {}

  async create(founding: OrganizationFounding): Promise<{ organization: Organization; token: ApiToken }> {
    const { Organization, Group, ApiToken } = this.db.models;
    return this.db.transaction(async (session) => {
      const { organization: fields } = founding;
      const organization: OrganizationDoc = {
        _id: await this.db.nextId('organizations', session),
        ...fields,
        createdAt: new Date(fields.createdAt),
      };
      const defaultGroup: GroupDoc = {
        _id: await this.db.nextId('groups', session),
        orgId: organization._id,
        ...founding.defaultGroup,
        changeCount: 0,
      };
      const token = tokenDoc(await this.db.nextId('api_tokens', session), organization._id, founding.token);
      await Organization.create([organization], { session });
      await Group.create([defaultGroup], { session });
      await ApiToken.create([token], { session });
      return { organization: organizationFromDoc(organization), token: tokenFromDoc(token) };
    });
  }

  get(orgId: number): Promise<Organization | null> {
    // organizations: by _id.
    return this.db.one(this.db.models.Organization.findOne({ _id: orgId }).lean<OrganizationDoc>(), organizationFromDoc);
  }

  list(): Promise<Organization[]> {
    // organizations: by _id (the operator's listing).
    return this.db.all(this.db.models.Organization.find({}).sort({ _id: 1 }).lean<OrganizationDoc[]>(), organizationFromDoc);
  }

  findByEnrollmentCodeHash(enrollmentCodeHash: string): Promise<Organization | null> {
    // organizations: the unique { enrollmentCodeHash }.
    const query = this.db.models.Organization.findOne({ enrollmentCodeHash }).lean<OrganizationDoc>();
    return this.db.one(query, organizationFromDoc);
  }

  replaceEnrollmentCode(orgId: number, enrollmentCodeHash: string): Promise<Organization> {
    return this.db.write(async () => {
      const doc = await this.db.models.Organization.findOneAndUpdate(
        { _id: orgId },
        { $set: { enrollmentCodeHash } },
        { returnDocument: 'after' },
      ).lean<OrganizationDoc>();
      if (!doc) throw organizationNotFound(orgId);
      return organizationFromDoc(doc);
    });
  }

  async addToken(orgId: number, token: NewApiToken): Promise<ApiToken> {
    return this.db.write(async () => {
      await this.db.requireOrganization(orgId, null);
      const doc = tokenDoc(await this.db.nextId('api_tokens'), orgId, token);
      await this.db.models.ApiToken.create(doc);
      return tokenFromDoc(doc);
    });
  }

  listTokens(orgId: number): Promise<ApiToken[]> {
    // api_tokens: { orgId, _id }.
    return this.db.all(this.db.models.ApiToken.find({ orgId }).sort({ _id: 1 }).lean<ApiTokenDoc[]>(), tokenFromDoc);
  }

  changeToken(orgId: number, tokenId: number, decide: (token: ApiToken) => ApiTokenChange): Promise<ApiToken> {
    const withDates = ({ revokedAt }: ApiTokenChange) => ({ revokedAt: dateOrNull(revokedAt) });
    const missing = () => apiTokenNotFound(tokenId);
    return this.db.decideAndSave('ApiToken', { _id: tokenId, orgId }, tokenFromDoc, missing, decide, withDates);
  }

  async findOrgIdByTokenHash(tokenHash: string): Promise<number | null> {
    await this.db.ready;
    // api_tokens: the unique { tokenHash }.
    const doc = await this.db.models.ApiToken.findOne({ tokenHash, revokedAt: null }, { orgId: 1 }).lean<
      Pick<ApiTokenDoc, 'orgId'>
    >();
    return doc?.orgId ?? null;
  }
}

function tokenDoc(id: number, orgId: number, token: NewApiToken): ApiTokenDoc {
  return { _id: id, orgId, ...token, createdAt: new Date(token.createdAt), revokedAt: dateOrNull(token.revokedAt) };
}

function dateOrNull(timestamp: string | null): Date | null {
  return timestamp === null ? null : new Date(timestamp);
}

const organizationFromDoc = ({ _id, name, createdAt }: OrganizationDoc): Organization => ({
  id: _id,
  name,
  createdAt: createdAt.toISOString(),
});

const tokenFromDoc = ({ _id, tokenHash: _tokenHash, createdAt, revokedAt, ...fields }: ApiTokenDoc): ApiToken => ({
  id: _id,
  ...fields,
  createdAt: createdAt.toISOString(),
  revokedAt: revokedAt ? revokedAt.toISOString() : null,
});
