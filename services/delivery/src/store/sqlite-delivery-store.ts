import { closeSqlite, type SqliteDatabase, SqliteQueries, storeDatabase } from '@formcast/storage';
import type { SecretCipher } from '../secrets';
import type { DeliveryStore } from './delivery-store';
import { SqliteBounces } from './sqlite-bounces';
import { SqliteDeliveryDocuments } from './sqlite-delivery-documents';
import { SqliteDeliveryQueue } from './sqlite-delivery-queue';
import { SqliteDestinations } from './sqlite-destinations';
import { deliveryMigrations } from './sqlite-migrations';
import { SqlitePerformanceMetrics } from './sqlite-performance-metrics';

/**
 * The delivery store on SQLite (embedded mode): one database, its parts by aggregate
 * (destinations, the delivery queue, documents, the bounce list, the performance report's
 * reads), each in a file of its own. better-sqlite3 is synchronous, so each method runs to
 * completion before another starts; writes still go through IMMEDIATE transactions, so a
 * second process on the same file never interleaves with them, and leases work across
 * processes as they do across MongoDB replicas.
 */
export class SqliteDeliveryStore implements DeliveryStore {
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;
  readonly destinations: SqliteDestinations;
  readonly queue: SqliteDeliveryQueue;
  readonly documents: SqliteDeliveryDocuments;
  readonly bounces: SqliteBounces;
  readonly metrics: SqlitePerformanceMetrics;

  /**
   * Takes a database file (created with its folder if missing), `':memory:'`, or a database
   * already opened with `openSqlite`; brings its schema up to date. The store owns the
   * database from then on: `close()` closes it.
   */
  constructor(
    database: SqliteDatabase | string,
    /** Seals signing secrets on writing, opens them on reading. */
    cipher: SecretCipher,
  ) {
    this.db = storeDatabase(database, deliveryMigrations);
    this.sql = new SqliteQueries(this.db);
    this.destinations = new SqliteDestinations(this.db, this.sql, cipher);
    this.queue = new SqliteDeliveryQueue(this.db, this.sql, cipher, this.destinations);
    this.documents = new SqliteDeliveryDocuments(this.sql);
    this.bounces = new SqliteBounces(this.sql);
    this.metrics = new SqlitePerformanceMetrics(this.sql);
  }

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }
}
