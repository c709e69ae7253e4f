import { countersMigration, type Migration } from '@formcast/storage';

/** The push service's SQLite file, one version per step; never edit a released step. */
export const pushMigrations: Migration[] = [
  countersMigration(1),
  {
    version: 2,
    up: `
      CREATE TABLE oneshots (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        device_identifier TEXT NOT NULL,
        form_id INTEGER NOT NULL,
        template_namespace TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('outstanding', 'revoked', 'completed')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- a device's outstanding ones (listing, counting) and an organization's (listing)
      CREATE INDEX oneshots_device_state ON oneshots (org_id, device_id, state, id);
      CREATE INDEX oneshots_org_state ON oneshots (org_id, state, id);
      CREATE TABLE submissions (
        oneshot_id INTEGER PRIMARY KEY REFERENCES oneshots (id),
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        answers TEXT NOT NULL,
        submitted_at TEXT NOT NULL
      );
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    // The commands applied lately (see CommandWindow), each with the oneshots it changed,
    // in order: enough to answer a repeat, whatever the size of their payloads.
    up: `
      CREATE TABLE applied_commands (
        command_id TEXT PRIMARY KEY,
        oneshot_ids TEXT NOT NULL,
        applied_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX applied_commands_by_time ON applied_commands (applied_at);
    `,
  },
  {
    version: 4,
    // Submissions of any form, not only of oneshots, each with an id of its own; what the
    // submissions of oneshots kept until now become, numbered in the order of their oneshots
    // (their device owner and form version were not recorded: ''). A submission's applied
    // command records the submission's id in applied_commands.oneshot_ids.
    up: `
      CREATE TABLE form_submissions (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        device_identifier TEXT NOT NULL,
        device_owner TEXT NOT NULL,
        form_id INTEGER NOT NULL,
        form_namespace TEXT NOT NULL,
        form_name TEXT NOT NULL,
        form_version TEXT NOT NULL,
        oneshot_id INTEGER REFERENCES oneshots (id),
        client_submission_id TEXT,
        answers TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        received_at TEXT NOT NULL
      );
      -- a oneshot is completed once; a client id is one submission per device
      CREATE UNIQUE INDEX form_submissions_by_oneshot ON form_submissions (org_id, oneshot_id) WHERE oneshot_id IS NOT NULL;
      CREATE UNIQUE INDEX form_submissions_by_client_id ON form_submissions (org_id, device_id, client_submission_id)
        WHERE client_submission_id IS NOT NULL;
      -- the submissions database API: a form's, all or one device's, ascending by id
      CREATE INDEX form_submissions_by_form ON form_submissions (org_id, form_id, id);
      CREATE INDEX form_submissions_by_form_device ON form_submissions (org_id, form_id, device_identifier, id);
      INSERT INTO form_submissions (id, org_id, device_id, device_identifier, device_owner, form_id, form_namespace,
          form_name, form_version, oneshot_id, client_submission_id, answers, submitted_at, received_at)
        SELECT row_number() OVER (ORDER BY s.oneshot_id), s.org_id, s.device_id, o.device_identifier, '', o.form_id,
          o.template_namespace, o.name, '', s.oneshot_id, NULL, s.answers, s.submitted_at, s.submitted_at
        FROM submissions s JOIN oneshots o ON o.id = s.oneshot_id;
      INSERT INTO counters (name, value) SELECT 'submissions', count(*) FROM form_submissions WHERE true
        ON CONFLICT (name) DO UPDATE SET value = excluded.value;
      DROP TABLE submissions;
    `,
  },
  {
    version: 5,
    // Dispatch fields (issue 14): the template's version, the v3 fields, and the release of
    // scheduled dispatches (released_at NULL: not yet; everything kept until now was released
    // when created). The partial index serves the release loop's look for due ones.
    up: `
      ALTER TABLE oneshots ADD COLUMN form_version TEXT NOT NULL DEFAULT '';
      ALTER TABLE oneshots ADD COLUMN scheduled_at TEXT;
      ALTER TABLE oneshots ADD COLUMN released_at TEXT;
      ALTER TABLE oneshots ADD COLUMN location TEXT;
      ALTER TABLE oneshots ADD COLUMN address TEXT;
      ALTER TABLE oneshots ADD COLUMN geofence_radius REAL;
      UPDATE oneshots SET released_at = created_at WHERE true;
      CREATE INDEX oneshots_due ON oneshots (scheduled_at) WHERE released_at IS NULL AND state = 'outstanding';
    `,
  },
  {
    version: 6,
    // Submission images (v3/submission_image.md): one per device and image identifier, its
    // bytes in the row (at most SUBMISSION_IMAGE_MAX_BYTES, 10 MiB by default).
    up: `
      CREATE TABLE submission_images (
        uuid TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        device_identifier TEXT NOT NULL,
        image_identifier TEXT NOT NULL,
        submission_identifier TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        md5 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        bytes BLOB NOT NULL
      ) WITHOUT ROWID;
      -- an upload, get_md5: the device's image by its identifier
      CREATE UNIQUE INDEX submission_images_by_identifier ON submission_images (org_id, device_id, image_identifier);
    `,
  },
  {
    version: 7,
    // Submissions waiting for the images they name (v3/submission_image.md): their `received`
    // event is held here, out of the outbox, until the last image is stored.
    up: `
      CREATE TABLE submission_image_waits (
        submission_id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        named TEXT NOT NULL, -- JSON: every image identifier the submission names
        awaiting TEXT NOT NULL, -- JSON: those not yet stored
        event TEXT NOT NULL -- the held push.submission.received envelope
      );
      -- an image save: the device's waiting submissions
      CREATE INDEX submission_image_waits_by_device ON submission_image_waits (org_id, device_id);
    `,
  },
  {
    version: 8,
    // Issue 25, fair relay: each event's organization (0: none, and the events written before
    // this step), so the relay takes the oldest of every organization in turn, not one
    // organization's backlog (a destroy_all of 54,000) ahead of another's newer events.
    up: `
      ALTER TABLE outbox ADD COLUMN org_id INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX outbox_by_org ON outbox (org_id, seq);
    `,
  },
  {
    version: 9,
    // The per-device cap's count (countOutstanding, at every create) read from one row instead
    // of counting the device's outstanding oneshots, up to PUSH_MAX_OUTSTANDING_PER_DEVICE of
    // them: kept by triggers, in the transaction of every change of a oneshot, whichever path
    // makes it. A oneshot never moves to another device; an update that would is refused.
    up: `
      CREATE TABLE outstanding_per_device (
        org_id INTEGER NOT NULL,
        device_id INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (org_id, device_id)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO outstanding_per_device (org_id, device_id, total)
        SELECT org_id, device_id, count(*) FROM oneshots WHERE state = 'outstanding' GROUP BY org_id, device_id;
      CREATE TRIGGER oneshot_outstanding_created AFTER INSERT ON oneshots WHEN NEW.state = 'outstanding' BEGIN
        INSERT INTO outstanding_per_device (org_id, device_id, total) VALUES (NEW.org_id, NEW.device_id, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER oneshot_outstanding_ended AFTER UPDATE OF state ON oneshots
        WHEN OLD.state = 'outstanding' AND NEW.state <> 'outstanding' BEGIN
        UPDATE outstanding_per_device SET total = total - 1 WHERE org_id = OLD.org_id AND device_id = OLD.device_id;
      END;
      CREATE TRIGGER oneshot_outstanding_again AFTER UPDATE OF state ON oneshots
        WHEN OLD.state <> 'outstanding' AND NEW.state = 'outstanding' BEGIN
        INSERT INTO outstanding_per_device (org_id, device_id, total) VALUES (NEW.org_id, NEW.device_id, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER oneshot_outstanding_deleted AFTER DELETE ON oneshots WHEN OLD.state = 'outstanding' BEGIN
        UPDATE outstanding_per_device SET total = total - 1 WHERE org_id = OLD.org_id AND device_id = OLD.device_id;
      END;
      CREATE TRIGGER oneshot_never_moves BEFORE UPDATE OF org_id, device_id ON oneshots
        WHEN OLD.org_id <> NEW.org_id OR OLD.device_id <> NEW.device_id BEGIN
        SELECT RAISE(ABORT, 'a oneshot never moves to another organization or device');
      END;
    `,
  },
];
