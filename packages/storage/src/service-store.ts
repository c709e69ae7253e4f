import { closeSqlite } from './sqlite-checkpointer';
import { storeDatabase, type Migration, type SqliteDatabase } from './sqlite';
import { SqliteQueries } from './sqlite-queries';

/** What every service's store answers besides its data: readiness and closing. */
export interface ServiceStore {
  /** Readiness: the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A service's store on SQLite: its database, brought up to date with its migrations, owned by
 * the store from then on (`close()` closes it).
 */
export abstract class SqliteServiceStore implements ServiceStore {
  protected readonly db: SqliteDatabase;
  protected readonly sql: SqliteQueries;

  /** `database`: a file (created with its folder if missing), `':memory:'`, or a database already opened with `openSqlite`. */
  constructor(database: SqliteDatabase | string, migrations: Migration[]) {
    this.db = storeDatabase(database, migrations);
    this.sql = new SqliteQueries(this.db);
  }

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }
}
