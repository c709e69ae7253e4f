import { closeSqlite, type SqliteDatabase, SqliteQueries, storeDatabase } from '@formcast/storage';
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
export class SqliteDirectoryStore implements DirectoryStore {
  readonly organizations: SqliteOrganizationStore;
  readonly groups: SqliteGroupStore;
  readonly devices: SqliteDeviceStore;
  readonly forms: SqliteFormStore;
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;

  /**
   * Takes a database file (created with its folder if missing), `':memory:'`, or a database
   * already opened with `openSqlite`; brings its schema up to date. The store owns the
   * database from then on: `close()` closes it.
   */
  constructor(database: SqliteDatabase | string) {
    this.db = storeDatabase(database, directoryMigrations);
    this.sql = new SqliteQueries(this.db);
    this.organizations = new SqliteOrganizationStore(this.sql);
    this.groups = new SqliteGroupStore(this.sql);
    this.devices = new SqliteDeviceStore(this.sql);
    this.forms = new SqliteFormStore(this.sql);
  }

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }
}
