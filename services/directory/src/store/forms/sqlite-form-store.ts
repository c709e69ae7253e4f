import { nextSqliteId, type SqliteQueries } from '@formcast/storage';
import { formNotFound } from '../../domain/errors';
import type { Form, FormDefinition, FormRevision, FormVersion, NewForm } from '../../domain/records';
import { appliedIds, recordApplied } from '../sqlite-applied-commands';
import { requireGroup, requireOrganization } from '../sqlite-references';
import { writeUnique } from '../sqlite-unique';
import type { FormStore } from './form-store';

interface FormRow {
  id: number;
  org_id: number;
  group_id: number;
  name: string;
  namespace: string;
  description: string;
  revision: number;
  locked: number;
  definition: string;
  created_at: string;
  updated_at: string;
}

interface FormVersionRow {
  revision: number;
  name: string;
  definition: string;
}

/** Forms on the directory's SQLite database (see SqliteDirectoryStore); a definition is kept as JSON. */
export class SqliteFormStore implements FormStore {
  constructor(private readonly sql: SqliteQueries) {}

  async create(form: NewForm, commandId: string): Promise<Form> {
    return this.sql.write(() => {
      const [appliedId] = appliedIds(this.sql, form.orgId, commandId) ?? [];
      if (appliedId !== undefined) return this.requireForm(form.orgId, appliedId);
      requireOrganization(this.sql, form.orgId);
      requireGroup(this.sql, form.orgId, form.groupId);
      const id = nextSqliteId(this.sql.db, 'forms');
      writeUnique(form, () =>
        this.sql.run(
          `INSERT INTO forms (id, org_id, group_id, name, namespace, description, revision,
                              definition, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          form.orgId,
          form.groupId,
          form.name,
          form.namespace,
          form.description,
          form.revision,
          JSON.stringify(form.definition),
          form.createdAt,
          form.updatedAt,
        ),
      );
      recordApplied(this.sql, form.orgId, commandId, [id]);
      return this.requireForm(form.orgId, id);
    });
  }

  async list(orgId: number): Promise<Form[]> {
    return this.sql.all<FormRow>('SELECT * FROM forms WHERE org_id = ? ORDER BY id', orgId).map(toForm);
  }

  async get(orgId: number, formId: number): Promise<Form | null> {
    const row = this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
    return row ? toForm(row) : null;
  }

  async findByNamespace(orgId: number, namespace: string): Promise<Form | null> {
    const row = this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND namespace = ?', orgId, namespace);
    return row ? toForm(row) : null;
  }

  async getVersion(orgId: number, formId: number, revision: number): Promise<FormVersion | null> {
    const form = await this.get(orgId, formId);
    if (!form) return null;
    if (form.revision === revision) return { revision, name: form.name, definition: form.definition };
    const row = this.sql.get<FormVersionRow>('SELECT * FROM form_versions WHERE org_id = ? AND form_id = ? AND revision = ?', orgId, formId, revision);
    return row ? { revision: row.revision, name: row.name, definition: JSON.parse(row.definition) as FormDefinition } : null;
  }

  async revise(orgId: number, formId: number, decide: (form: Form) => FormRevision): Promise<Form> {
    return this.sql.write(() => {
      const current = this.requireForm(orgId, formId);
      const revision = decide(current);
      this.sql.run(
        'INSERT OR REPLACE INTO form_versions (org_id, form_id, revision, name, definition, replaced_at) VALUES (?, ?, ?, ?, ?, ?)',
        orgId,
        formId,
        current.revision,
        current.name,
        JSON.stringify(current.definition),
        revision.updatedAt,
      );
      return this.setColumns(orgId, formId, {
        definition: JSON.stringify(revision.definition),
        name: revision.name,
        revision: revision.revision,
        updated_at: revision.updatedAt,
      });
    });
  }

  async move(orgId: number, formId: number, groupId: number, movedAt: string): Promise<Form> {
    return this.sql.write(() => {
      this.requireForm(orgId, formId);
      requireGroup(this.sql, orgId, groupId);
      return this.setColumns(orgId, formId, { group_id: groupId, updated_at: movedAt });
    });
  }

  async setLocked(orgId: number, formId: number, locked: boolean, at: string): Promise<Form> {
    return this.sql.write(() => {
      this.requireForm(orgId, formId);
      return this.setColumns(orgId, formId, { locked: locked ? 1 : 0, updated_at: at });
    });
  }

  async delete(orgId: number, formId: number): Promise<Form> {
    return this.sql.write(() => {
      const form = this.requireForm(orgId, formId);
      this.sql.run('DELETE FROM form_versions WHERE org_id = ? AND form_id = ?', orgId, formId);
      this.sql.run('DELETE FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
      return form;
    });
  }

  /** Sets the form's `columns` (names from this file, never from a request) and answers the form as it is then. */
  private setColumns(orgId: number, formId: number, columns: Record<string, unknown>): Form {
    const names = Object.keys(columns);
    this.sql.run(`UPDATE forms SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE org_id = ? AND id = ?`, ...Object.values(columns), orgId, formId);
    return this.requireForm(orgId, formId);
  }

  private requireForm(orgId: number, formId: number): Form {
    const row = this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
    if (!row) throw formNotFound(formId);
    return toForm(row);
  }
}

const toForm = (row: FormRow): Form => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  namespace: row.namespace,
  description: row.description,
  revision: row.revision,
  groupId: row.group_id,
  locked: row.locked === 1,
  definition: JSON.parse(row.definition) as FormDefinition,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
