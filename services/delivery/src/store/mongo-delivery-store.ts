import { MongoStore } from '@formcast/storage';
import type { Connection } from 'mongoose';
import type { SecretCipher } from '../secrets';
import type { DeliveryStore } from './delivery-store';
import { MongoBounces } from './mongo-bounces';
import { MongoDeliveryDocuments } from './mongo-delivery-documents';
import type { MongoDeliveryContext } from './mongo-delivery-part';
import { MongoDeliveryQueue } from './mongo-delivery-queue';
import { MongoDestinations } from './mongo-destinations';
import { deliveryModels, type DeliveryModels } from './mongo-models';
import { MongoPerformanceMetrics } from './mongo-performance-metrics';

/**
 * The delivery store on MongoDB (distributed mode): `destinations`, and `deliveries` with
 * their attempts inside, `delivery_documents` and `bounced_addresses`: one connection, its
 * parts by aggregate (as SqliteDeliveryStore's), each in a file of its own. Leases are
 * conditional updates, so any number of replicas can claim at once; changes spanning
 * several collections run in transactions (a replica set).
 *
 * No transaction touches a destination's whole delivery log: it may be long, and a
 * transaction must finish within MongoDB's 60 s lifetime (`transactionLifetimeLimitSeconds`)
 * and stay small in the oplog. Deleting a destination removes its deliveries in batches
 * first; turning a destination off changes the destination only (its `active` flag is what
 * holds its deliveries: `dueDeliveries` selects those of active destinations only, and the
 * delivery log shows a pending delivery of an inactive one without a due time, as SQLite
 * stores it); turning it back on gives held deliveries without a due time one, in batches.
 */
export class MongoDeliveryStore extends MongoStore<DeliveryModels> implements DeliveryStore {
  readonly destinations: MongoDestinations;
  readonly queue: MongoDeliveryQueue;
  readonly documents: MongoDeliveryDocuments;
  readonly bounces: MongoBounces;
  readonly metrics: MongoPerformanceMetrics;

  constructor(
    connection: Connection,
    /** Seals signing secrets on writing, opens them on reading. */
    cipher: SecretCipher,
  ) {
    super(connection, deliveryModels, 'delivery');
    // Every read and write waits for the start (collections and indexes in place).
    const context: MongoDeliveryContext = {
      connection,
      models: this.models,
      cipher,
      start: () => this.start(),
      transaction: (change) => this.transaction(change),
      snapshotRead: (read) => this.snapshotRead(read),
    };
    this.destinations = new MongoDestinations(context);
    this.queue = new MongoDeliveryQueue(context, this.destinations);
    this.documents = new MongoDeliveryDocuments(context);
    this.bounces = new MongoBounces(context);
    this.metrics = new MongoPerformanceMetrics(context);
  }
}
