import { countersMigration, type Migration } from '@formcast/storage';

/**
 * The delivery service's SQLite schema, one step per release that changes it. Never edit
 * a step that has shipped: add the next one.
 *
 * Times the worker compares (`next_attempt_at`, `claimed_until`) are epoch ms; the others
 * ISO 8601 text, as shown.
 */
export const deliveryMigrations: Migration[] = [
  countersMigration(1),
  {
    version: 2,
    up: `
      CREATE TABLE destinations (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        form_id INTEGER NOT NULL,
        description TEXT,
        active INTEGER NOT NULL CHECK (active IN (0, 1)),
        format TEXT NOT NULL,
        transport_type TEXT NOT NULL,
        transport_parameters TEXT NOT NULL, -- JSON, as the API spells them
        secret TEXT NOT NULL,
        retired_secrets TEXT NOT NULL, -- JSON: [{secret, expiresAt}]
        deactivated_reason TEXT,
        deactivated_at TEXT,
        failing_since TEXT,
        command_id TEXT NOT NULL, -- the create's
        rotation_command_id TEXT, -- the last rotation's
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX destinations_by_form ON destinations (org_id, form_id, id);
      -- a redelivered create finds the destination it made
      CREATE UNIQUE INDEX destinations_by_command ON destinations (org_id, command_id);

      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        form_id INTEGER NOT NULL,
        destination_id INTEGER NOT NULL REFERENCES destinations (id) ON DELETE CASCADE,
        submission_id INTEGER NOT NULL,
        webhook_id TEXT NOT NULL,
        content_type TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        schedule_step INTEGER NOT NULL,
        next_attempt_at INTEGER, -- null: none due (finished, or its destination inactive)
        claimed_until INTEGER NOT NULL DEFAULT 0,
        claim_token TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (destination_id, submission_id) -- one per submission, however often its event comes
      ) STRICT;
      CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_leased ON deliveries (claimed_until) WHERE status = 'pending';
      CREATE INDEX deliveries_log ON deliveries (destination_id, id);

      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY,
        delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        attempted_at TEXT NOT NULL,
        status_code INTEGER,
        duration_ms INTEGER NOT NULL,
        response_body TEXT,
        error TEXT
      ) STRICT;
      CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, id);
    `,
  },
  {
    // The retention sweep's: ended deliveries by the time they ended. Signing secrets are
    // sealed by the store at start (it needs the key), not here.
    version: 3,
    up: `CREATE INDEX deliveries_ended ON deliveries (updated_at) WHERE status <> 'pending';`,
  },
  {
    // The document formats (issue 27): a format's parameters, the parameter records' own
    // times (null on older rows: the destination's), and each delivery's document, rendered
    // once at its first attempt and sent the same on every one after (GET …/document).
    version: 4,
    up: `
      ALTER TABLE destinations ADD COLUMN format_parameters TEXT NOT NULL DEFAULT '{}'; -- JSON, as the API spells them
      ALTER TABLE destinations ADD COLUMN format_updated_at TEXT;
      ALTER TABLE destinations ADD COLUMN transport_updated_at TEXT;
      CREATE TABLE delivery_documents (
        delivery_id INTEGER PRIMARY KEY REFERENCES deliveries (id) ON DELETE CASCADE,
        message TEXT NOT NULL, -- JSON: the email's subject, text, html, attach
        content_type TEXT NOT NULL,
        file_name TEXT NOT NULL,
        bytes BLOB NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // The bounce list (email_transport.skip_bounce_list_check): addresses refused for good.
    version: 5,
    up: `
      CREATE TABLE bounced_addresses (
        org_id INTEGER NOT NULL,
        address TEXT NOT NULL, -- lower case
        bounced_at TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (org_id, address)
      ) STRICT;
    `,
  },
  {
    // The performance metric report (report.md): an organization's deliveries of a month, by creation time.
    version: 6,
    up: `CREATE INDEX deliveries_by_org_time ON deliveries (org_id, created_at, id);`,
  },
];
