import { SqliteServiceStore, type SqliteDatabase } from '@formcast/storage';
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
export class SqliteDeliveryStore extends SqliteServiceStore implements DeliveryStore {
  readonly destinations: SqliteDestinations;
  readonly queue: SqliteDeliveryQueue;
  readonly documents: SqliteDeliveryDocuments;
  readonly bounces: SqliteBounces;
  readonly metrics: SqlitePerformanceMetrics;

  /** `database`: as SqliteServiceStore takes it. */
  constructor(
    database: SqliteDatabase | string,
    /** Seals signing secrets on writing, opens them on reading. */
    cipher: SecretCipher,
  ) {
    super(database, deliveryMigrations);
    this.destinations = new SqliteDestinations(this.db, this.sql, cipher);
    this.queue = new SqliteDeliveryQueue(this.db, this.sql, cipher, this.destinations);
    this.documents = new SqliteDeliveryDocuments(this.sql);
    this.bounces = new SqliteBounces(this.sql);
    this.metrics = new SqlitePerformanceMetrics(this.sql);
  }
}
