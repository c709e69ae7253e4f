import type { ClientSession, Connection } from 'mongoose';
import type { Destination } from '../domain/records';
import type { SecretCipher } from '../secrets';
import { destinationFromDoc } from './mongo-delivery-docs';
import type { DeliveryModels, DestinationDoc } from './mongo-models';

/** What the MongoDB parts of the delivery store share, from MongoDeliveryStore: one connection, its models, its start and its transactions. */
export interface MongoDeliveryContext {
  readonly connection: Connection;
  readonly models: DeliveryModels;
  /** Seals signing secrets on writing, opens them on reading. */
  readonly cipher: SecretCipher;
  /** The store's start (collections, indexes): awaited before the first operation (see MongoStore.start). */
  start(): Promise<void>;
  transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T>;
  snapshotRead<T>(read: (session: ClientSession) => Promise<T>): Promise<T>;
}

/** A part of MongoDeliveryStore (one aggregate), over the store's connection. */
export abstract class MongoDeliveryPart {
  constructor(private readonly context: MongoDeliveryContext) {}

  protected get connection(): Connection {
    return this.context.connection;
  }

  protected get models(): DeliveryModels {
    return this.context.models;
  }

  protected get cipher(): SecretCipher {
    return this.context.cipher;
  }

  /** Await it before the first operation: the store's start. */
  protected get ready(): Promise<void> {
    return this.context.start();
  }

  /** `change` in one transaction, once started (see MongoStore.transaction). */
  protected transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.context.transaction(change);
  }

  /** Several reads from one snapshot, once started (see MongoStore.snapshotRead). */
  protected snapshotRead<T>(read: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.context.snapshotRead(read);
  }

  protected fromDoc(doc: DestinationDoc): Destination {
    return destinationFromDoc(doc, this.cipher);
  }

  protected async destinationDoc(orgId: number, formId: number, destinationId: number, session?: ClientSession): Promise<DestinationDoc | null> {
    await this.ready;
    return this.models.Destination.findOne({ _id: destinationId, orgId, formId }, null, { session: session ?? null }).lean<DestinationDoc>();
  }
}
