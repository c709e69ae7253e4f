import { SqliteServiceStore, type SqliteDatabase } from '@formcast/storage';
import type { DirectoryStore } from './directory-store';
import { SqliteDeviceStore } from './devices/sqlite-device-store';
import { SqliteFormStore } from './forms/sqlite-form-store';
import { SqliteGroupStore } from './groups/sqlite-group-store';
import { SqliteOrganizationStore } from './organizations/sqlite-organization-store';
import { directoryMigrations } from './sqlite-migrations';

/**
 * The directory store on SQLite (embedded mode): its four parts on one database. better-sqlite3
 * is synchronous, so each method runs to completion before another starts; writes still go
 * through IMMEDIATE transactions so that a second process on the same file can never
 * interleave with them.
 */
export class SqliteDirectoryStore extends SqliteServiceStore implements DirectoryStore {
  readonly organizations: SqliteOrganizationStore;
  readonly groups: SqliteGroupStore;
  readonly devices: SqliteDeviceStore;
  readonly forms: SqliteFormStore;

  /** `database`: as SqliteServiceStore takes it. */
  constructor(database: SqliteDatabase | string) {
    super(database, directoryMigrations);
    this.organizations = new SqliteOrganizationStore(this.sql);
    this.groups = new SqliteGroupStore(this.sql);
    this.devices = new SqliteDeviceStore(this.sql);
    this.forms = new SqliteFormStore(this.sql);
  }
}
