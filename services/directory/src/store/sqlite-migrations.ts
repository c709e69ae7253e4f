import { countersMigration, type Migration } from '@formcast/storage';

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
];
