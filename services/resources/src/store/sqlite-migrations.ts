import { countersMigration, type Migration } from '@formcast/storage';

/**
 * The resources service's SQLite schema, one step per release that changes it. Never edit
 * a step that has shipped: add the next one.
 *
 * File bytes live in their own table, so listing and describing never page them in; a
 * file row refers to its resource through `(org_id, id)` and goes with it.
 */
export const resourceMigrations: Migration[] = [
  countersMigration(1),
  {
    version: 2,
    up: `
      CREATE TABLE resources (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        original_filename TEXT NOT NULL,
        description TEXT NOT NULL,
        content_type TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version >= 0),
        identifier TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        content_summary TEXT NOT NULL, -- ContentTable[] as JSON
        command_id TEXT NOT NULL, -- the last command that changed it
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (org_id, id) -- listResources; target of the file's (org_id, resource_id) reference
      ) STRICT;
      -- a redelivered create finds the resource it made
      CREATE INDEX resources_by_command ON resources (org_id, command_id);

      CREATE TABLE resource_files (
        resource_id INTEGER PRIMARY KEY, -- a rowid table: large values belong out of the key's b-tree
        org_id INTEGER NOT NULL,
        bytes BLOB NOT NULL,
        FOREIGN KEY (org_id, resource_id) REFERENCES resources (org_id, id) ON DELETE CASCADE
      ) STRICT;
    `,
  },
  {
    // Files in chunks of at most `fileChunkBytes`: a file stored as one value made SQLite
    // hold about three copies of it while writing (the bound value, the record, its pages).
    // Files already stored become one chunk each.
    version: 3,
    up: `
      CREATE TABLE resource_file_chunks (
        resource_id INTEGER NOT NULL,
        org_id INTEGER NOT NULL,
        seq INTEGER NOT NULL, -- from 0; the file is the chunks in this order
        bytes BLOB NOT NULL,
        PRIMARY KEY (resource_id, seq),
        FOREIGN KEY (org_id, resource_id) REFERENCES resources (org_id, id) ON DELETE CASCADE
      ) STRICT;
      INSERT INTO resource_file_chunks (resource_id, org_id, seq, bytes) SELECT resource_id, org_id, 0, bytes FROM resource_files;
      DROP TABLE resource_files;
    `,
  },
  {
    // v4's queued creates and updates (resource_v4.md): the job with its file until it ends.
    version: 4,
    up: `
      CREATE TABLE async_updates (
        id TEXT PRIMARY KEY, -- the async_resource_update_id (a UUID)
        org_id INTEGER NOT NULL,
        resource_id INTEGER, -- null: a create, until it completes
        description TEXT,
        file TEXT, -- ResourceFilePayload as JSON, or null
        bytes BLOB, -- the file, until the job ends
        status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
        version_when_queued INTEGER,
        version_when_completed INTEGER,
        error TEXT,
        claimed_until TEXT, -- a processing job's lease
        command_id TEXT NOT NULL, -- the queue command: a redelivered one finds its job
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX async_updates_by_command ON async_updates (org_id, command_id);
      CREATE INDEX async_updates_unfinished ON async_updates (status, created_at) WHERE status IN ('queued', 'processing');
    `,
  },
];
