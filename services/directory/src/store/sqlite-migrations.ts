import { hashSecret } from '@formcast/platform';
import { countersMigration, type Migration, type SqliteDatabase } from '@formcast/storage';

/**
 * The directory's SQLite schema, one step per release that changes it. Never edit a step
 * that has shipped: add the next one.
 *
 * Every row carries `org_id`, and references between rows go through `(org_id, id)` pairs,
 * so a row can never point at another organization's group or device.
 */
export const directoryMigrations: Migration[] = [
  countersMigration(1),
  {
    version: 2,
    up: `
      CREATE TABLE organizations (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        enrollment_code TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      -- findOrganizationByEnrollmentCode
      CREATE UNIQUE INDEX organizations_by_enrollment_code ON organizations (enrollment_code);

      CREATE TABLE api_tokens (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations (id),
        token_hash TEXT NOT NULL,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      -- findOrgIdByTokenHash
      CREATE UNIQUE INDEX api_tokens_by_hash ON api_tokens (token_hash);
      -- listApiTokens
      CREATE INDEX api_tokens_by_org ON api_tokens (org_id);

      CREATE TABLE groups (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations (id),
        name TEXT NOT NULL,
        is_default INTEGER NOT NULL CHECK (is_default IN (0, 1)),
        UNIQUE (org_id, id) -- listGroups; target of the (org_id, group_id) references
      ) STRICT;
      -- findGroupByName, and one name per organization
      CREATE UNIQUE INDEX groups_by_name ON groups (org_id, name);
      -- the organization's Default group, and only one of them
      CREATE UNIQUE INDEX groups_default ON groups (org_id) WHERE is_default = 1;

      CREATE TABLE devices (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations (id),
        identifier TEXT NOT NULL,
        owner TEXT NOT NULL,
        description TEXT NOT NULL,
        pending_approval INTEGER NOT NULL CHECK (pending_approval IN (0, 1)),
        push_token TEXT,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, id) -- listDevices; target of the (org_id, device_id) references
      ) STRICT;
      -- findDeviceByIdentifier, and one enrollment per identifier across organizations
      CREATE UNIQUE INDEX devices_by_identifier ON devices (identifier);
      -- findDeviceBySecretHash (device authentication)
      CREATE UNIQUE INDEX devices_by_secret_hash ON devices (secret_hash);

      CREATE TABLE group_devices (
        org_id INTEGER NOT NULL,
        group_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        -- a group's devices, and all memberships of an organization (listGroups)
        PRIMARY KEY (org_id, group_id, device_id),
        FOREIGN KEY (org_id, group_id) REFERENCES groups (org_id, id),
        FOREIGN KEY (org_id, device_id) REFERENCES devices (org_id, id)
      ) STRICT, WITHOUT ROWID;
      -- a device's groups
      CREATE INDEX group_devices_by_device ON group_devices (org_id, device_id);

      CREATE TABLE forms (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations (id),
        group_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        namespace TEXT NOT NULL,
        description TEXT NOT NULL,
        revision INTEGER NOT NULL,
        definition TEXT NOT NULL, -- the FormDefinition as JSON
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        FOREIGN KEY (org_id, group_id) REFERENCES groups (org_id, id)
      ) STRICT;
      -- findFormByNamespace, and one form per namespace in an organization
      CREATE UNIQUE INDEX forms_by_namespace ON forms (org_id, namespace);
      -- listForms, and a group's forms (getGroup, updateGroup, deleteGroup)
      CREATE INDEX forms_by_group ON forms (org_id, group_id);
    `,
  },
  {
    // Issue 16: an identifier is unique in its organization only, so enrolling one that
    // another organization has tells nothing of it.
    version: 3,
    up: `
      DROP INDEX devices_by_identifier;
      -- findDeviceByIdentifier, and one enrollment per identifier in an organization
      CREATE UNIQUE INDEX devices_by_identifier ON devices (org_id, identifier);
    `,
  },
  {
    // Issue 16: an enrollment code is a credential, kept as its SHA-256 like API tokens.
    version: 4,
    up: hashEnrollmentCodes,
  },
  {
    // Issue 15 (devices v2): what a device reports of itself, and its custom attributes
    // (a JSON object of names to text; devices of earlier releases have none).
    version: 5,
    up: `
      ALTER TABLE devices ADD COLUMN os_version TEXT;
      ALTER TABLE devices ADD COLUMN app_identifier TEXT;
      ALTER TABLE devices ADD COLUMN app_version TEXT;
      ALTER TABLE devices ADD COLUMN custom_attributes TEXT NOT NULL DEFAULT '{}';
    `,
  },
  {
    // The creates applied lately (forms, groups), each with the ids it created, in order: a
    // create run again under its command id (redelivered, or a crashed keyed request's
    // retry) answers those instead of creating again. See sqlite-applied-commands.ts.
    version: 6,
    up: `
      CREATE TABLE applied_commands (
        command_id TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL,
        created_ids TEXT NOT NULL,
        applied_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX applied_commands_by_time ON applied_commands (applied_at);
    `,
  },
  {
    // PUT /api/v3/forms/<id>/lock and /unlock (form.md): a locked form takes no new definition.
    version: 7,
    up: `ALTER TABLE forms ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    // form.md's `?version=`: the definitions a form had before its current one, kept when a
    // new one replaces them (forms of earlier releases have none kept).
    version: 8,
    up: `
      CREATE TABLE form_versions (
        org_id INTEGER NOT NULL,
        form_id INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        name TEXT NOT NULL,
        definition TEXT NOT NULL, -- the FormDefinition as JSON
        replaced_at TEXT NOT NULL, -- when the next definition replaced it
        PRIMARY KEY (org_id, form_id, revision)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    // group.md (groups v2): a group's tags, a JSON array of names (groups of earlier releases have none).
    version: 9,
    up: `ALTER TABLE groups ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';`,
  },
];

/**
 * Renames `enrollment_code` to `enrollment_code_hash` and replaces every code kept in clear
 * by its hash. With `secure_delete` on meanwhile, SQLite overwrites what it frees with zeros
 * (the old values and the dropped index's pages), so no code stays readable in the file.
 */
function hashEnrollmentCodes(db: SqliteDatabase): void {
  const secureDelete = Number(db.pragma('secure_delete', { simple: true }));
  db.pragma('secure_delete = ON');
  try {
    hashEnrollmentCodesInPlace(db);
  } finally {
    db.pragma(`secure_delete = ${secureDelete}`);
  }
}

function hashEnrollmentCodesInPlace(db: SqliteDatabase): void {
  db.exec(`
    DROP INDEX organizations_by_enrollment_code;
    ALTER TABLE organizations RENAME COLUMN enrollment_code TO enrollment_code_hash;
  `);
  const codes = db.prepare('SELECT id, enrollment_code_hash AS code FROM organizations').all() as { id: number; code: string }[];
  const hashed = db.prepare('UPDATE organizations SET enrollment_code_hash = ? WHERE id = ?');
  for (const { id, code } of codes) hashed.run(hashSecret(code), id);
  db.exec(`
    -- findByEnrollmentCodeHash (device enrollment); one organization per code
    CREATE UNIQUE INDEX organizations_by_enrollment_code_hash ON organizations (enrollment_code_hash);
  `);
}
