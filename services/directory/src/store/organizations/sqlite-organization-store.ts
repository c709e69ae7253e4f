import { nextSqliteId, type SqliteQueries } from '@formcast/storage';
import { apiTokenNotFound, organizationNotFound } from '../../domain/errors';
import type { ApiToken, ApiTokenChange, NewApiToken, Organization, OrganizationFounding } from '../../domain/records';
import { insertGroup } from '../groups/sqlite-group-store';
import { requireOrganization } from '../sqlite-references';
import { writeUnique } from '../sqlite-unique';
import type { OrganizationStore } from './organization-store';

interface OrganizationRow {
  id: number;
  name: string;
  created_at: string;
}

const organizationColumns = 'id, name, created_at';

interface ApiTokenRow {
  id: number;
  org_id: number;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

const apiTokenColumns = 'id, org_id, label, created_at, revoked_at';

/** Organizations and API tokens on the directory's SQLite database (see SqliteDirectoryStore). */
export class SqliteOrganizationStore implements OrganizationStore {
  constructor(private readonly sql: SqliteQueries) {}

  async create(founding: OrganizationFounding): Promise<{ organization: Organization; token: ApiToken }> {
    return this.sql.write(() => {
      const fields = founding.organization;
      const orgId = nextSqliteId(this.sql.db, 'organizations');
      writeUnique(fields, () =>
        this.sql.run(
          'INSERT INTO organizations (id, name, enrollment_code_hash, created_at) VALUES (?, ?, ?, ?)',
          orgId,
          fields.name,
          fields.enrollmentCodeHash,
          fields.createdAt,
        ),
      );
      insertGroup(this.sql, orgId, founding.defaultGroup);
      const organization = { id: orgId, name: fields.name, createdAt: fields.createdAt };
      return { organization, token: this.insertToken(orgId, founding.token) };
    });
  }

  async get(orgId: number): Promise<Organization | null> {
    const row = this.organizationRow(orgId);
    return row ? toOrganization(row) : null;
  }

  async list(): Promise<Organization[]> {
    return this.sql.all<OrganizationRow>(`SELECT ${organizationColumns} FROM organizations ORDER BY id`).map(toOrganization);
  }

  async findByEnrollmentCodeHash(enrollmentCodeHash: string): Promise<Organization | null> {
    const sql = `SELECT ${organizationColumns} FROM organizations WHERE enrollment_code_hash = ?`;
    const row = this.sql.get<OrganizationRow>(sql, enrollmentCodeHash);
    return row ? toOrganization(row) : null;
  }

  async replaceEnrollmentCode(orgId: number, enrollmentCodeHash: string): Promise<Organization> {
    return this.sql.write(() => {
      const row = this.organizationRow(orgId);
      if (!row) throw organizationNotFound(orgId);
      writeUnique({ enrollmentCodeHash }, () =>
        this.sql.run('UPDATE organizations SET enrollment_code_hash = ? WHERE id = ?', enrollmentCodeHash, orgId),
      );
      return toOrganization(row);
    });
  }

  async addToken(orgId: number, token: NewApiToken): Promise<ApiToken> {
    return this.sql.write(() => {
      requireOrganization(this.sql, orgId);
      return this.insertToken(orgId, token);
    });
  }

  async listTokens(orgId: number): Promise<ApiToken[]> {
    return this.sql
      .all<ApiTokenRow>(`SELECT ${apiTokenColumns} FROM api_tokens WHERE org_id = ? ORDER BY id`, orgId)
      .map(toApiToken);
  }

  async changeToken(orgId: number, tokenId: number, decide: (token: ApiToken) => ApiTokenChange): Promise<ApiToken> {
    return this.sql.write(() => {
      const row = this.sql.get<ApiTokenRow>(
        `SELECT ${apiTokenColumns} FROM api_tokens WHERE org_id = ? AND id = ?`,
        orgId,
        tokenId,
      );
      if (!row) throw apiTokenNotFound(tokenId);
      const token = toApiToken(row);
      const changed = { ...token, ...decide(token) };
      this.sql.run('UPDATE api_tokens SET revoked_at = ? WHERE org_id = ? AND id = ?', changed.revokedAt, orgId, tokenId);
      return changed;
    });
  }

  async findOrgIdByTokenHash(tokenHash: string): Promise<number | null> {
    const row = this.sql.get<{ org_id: number }>(
      'SELECT org_id FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL',
      tokenHash,
    );
    return row?.org_id ?? null;
  }

  private organizationRow(orgId: number): OrganizationRow | undefined {
    return this.sql.get<OrganizationRow>(`SELECT ${organizationColumns} FROM organizations WHERE id = ?`, orgId);
  }

  private insertToken(orgId: number, token: NewApiToken): ApiToken {
    const id = nextSqliteId(this.sql.db, 'api_tokens');
    writeUnique(token, () =>
      this.sql.run(
        'INSERT INTO api_tokens (id, org_id, token_hash, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
        id,
        orgId,
        token.tokenHash,
        token.label,
        token.createdAt,
        token.revokedAt,
      ),
    );
    return { id, orgId, label: token.label, createdAt: token.createdAt, revokedAt: token.revokedAt };
  }
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  orgId: row.org_id,
  label: row.label,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});
