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
  private readonly destinations: SqliteDestinations;
  private readonly queue: SqliteDeliveryQueue;
  private readonly documents: SqliteDeliveryDocuments;
  private readonly bounces: SqliteBounces;
  private readonly metrics: SqlitePerformanceMetrics;

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

  listDestinations: DeliveryStore['listDestinations'] = (...args) => this.destinations.listDestinations(...args);
  getDestination: DeliveryStore['getDestination'] = (...args) => this.destinations.getDestination(...args);
  createDestination: DeliveryStore['createDestination'] = (...args) => this.destinations.createDestination(...args);
  updateDestination: DeliveryStore['updateDestination'] = (...args) => this.destinations.updateDestination(...args);
  rotateSecret: DeliveryStore['rotateSecret'] = (...args) => this.destinations.rotateSecret(...args);
  deleteDestination: DeliveryStore['deleteDestination'] = (...args) => this.destinations.deleteDestination(...args);
  deleteFormDestinations: DeliveryStore['deleteFormDestinations'] = (...args) => this.destinations.deleteFormDestinations(...args);
  activeDestinations: DeliveryStore['activeDestinations'] = (...args) => this.destinations.activeDestinations(...args);
  sealSecrets: DeliveryStore['sealSecrets'] = () => this.destinations.sealSecrets();

  createDeliveries: DeliveryStore['createDeliveries'] = (...args) => this.queue.createDeliveries(...args);
  dueDeliveries: DeliveryStore['dueDeliveries'] = (...args) => this.queue.dueDeliveries(...args);
  inFlight: DeliveryStore['inFlight'] = (...args) => this.queue.inFlight(...args);
  claim: DeliveryStore['claim'] = (...args) => this.queue.claim(...args);
  holdLease: DeliveryStore['holdLease'] = (...args) => this.queue.holdLease(...args);
  recordAttempt: DeliveryStore['recordAttempt'] = (...args) => this.queue.recordAttempt(...args);
  listDeliveries: DeliveryStore['listDeliveries'] = (...args) => this.queue.listDeliveries(...args);
  redeliver: DeliveryStore['redeliver'] = (...args) => this.queue.redeliver(...args);
  sweepEnded: DeliveryStore['sweepEnded'] = (...args) => this.queue.sweepEnded(...args);
  getDelivery: DeliveryStore['getDelivery'] = (...args) => this.queue.getDelivery(...args);

  saveDocument: DeliveryStore['saveDocument'] = (...args) => this.documents.saveDocument(...args);
  getDocument: DeliveryStore['getDocument'] = (...args) => this.documents.getDocument(...args);
  recordBounces: DeliveryStore['recordBounces'] = (...args) => this.bounces.recordBounces(...args);
  bouncedAmong: DeliveryStore['bouncedAmong'] = (...args) => this.bounces.bouncedAmong(...args);
  performanceMetrics: DeliveryStore['performanceMetrics'] = (...args) => this.metrics.performanceMetrics(...args);

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    await closeSqlite(this.db);
  }
}
