import { randomUUID } from 'node:crypto';
import { isMongoDuplicateKey, MongoStore, nextMongoId } from '@formcast/storage';
import type { ClientSession, Connection, QueryFilter } from 'mongoose';
import type { AttemptOutcome, DestinationHealthChange } from '../domain/attempt-outcome';
import type { DueCandidate, InFlight } from '../domain/fair-selection';
import type { DeliveryMetric, MetricCursor } from '../domain/performance-metrics';
import type {
  Delivery,
  DeliveryDocument,
  DeliveryWithAttempts,
  Destination,
  DestinationChange,
  DestinationTransportSettings,
  FormatParameters,
  NewDelivery,
  NewDestination,
  SigningSecrets,
} from '../domain/records';
import { rotateSecrets } from '../domain/signing-secrets';
import { needSealing, openSigningSecrets, openTransport, sealSigningSecrets, sealTransport, type SecretCipher } from '../secrets';
import { attemptsKeptPerDelivery, type ClaimedDelivery, type DeliveryLogPage, type DeliveryStore, type NewAttempt, type PageRequest } from './delivery-store';
import { deliveryModels, type DeliveryDoc, type DeliveryDocumentDoc, type DeliveryModels, type DestinationDoc } from './mongo-models';
import { deliveryNotFound, destinationNotFound } from './store-errors';

/**
 * The delivery store on MongoDB (distributed mode): `destinations`, and `deliveries` with
 * their attempts inside. Leases are conditional updates, so any number of replicas can
 * claim at once; changes spanning both collections run in transactions (a replica set).
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
  constructor(
    connection: Connection,
    /** Seals signing secrets on writing, opens them on reading. */
    private readonly cipher: SecretCipher,
  ) {
    super(connection, deliveryModels, 'delivery');
  }

  // Destinations ------------------------------------------------------------------------

  async listDestinations(orgId: number, formId: number): Promise<Destination[]> {
    await this.ready;
    const docs = await this.models.Destination.find({ orgId, formId }).sort({ _id: 1 }).lean<DestinationDoc[]>();
    return docs.map((doc) => this.fromDoc(doc));
  }

  async getDestination(orgId: number, formId: number, destinationId: number): Promise<Destination | null> {
    const doc = await this.destinationDoc(orgId, formId, destinationId);
    return doc ? this.fromDoc(doc) : null;
  }

  async createDestination(input: NewDestination, commandId: string): Promise<Destination> {
    await this.ready;
    const { Destination } = this.models;
    const done = await Destination.findOne({ orgId: input.orgId, commandId }).lean<DestinationDoc>();
    if (done) return this.fromDoc(done);
    const at = new Date();
    const sealed = sealSigningSecrets(this.cipher, input.secrets);
    const doc: DestinationDoc = {
      _id: await nextMongoId(this.connection, 'destinations'),
      orgId: input.orgId,
      formId: input.formId,
      description: input.description,
      active: true,
      format: input.format,
      formatParameters: JSON.stringify(input.formatParameters),
      formatUpdatedAt: at,
      transportType: input.transport.type,
      transportParameters: JSON.stringify(sealTransport(this.cipher, input.transport).parameters),
      transportUpdatedAt: at,
      ...secretFields(sealed),
      deactivatedReason: null,
      deactivatedAt: null,
      failingSince: null,
      commandId,
      rotationCommandId: null,
      createdAt: at,
      updatedAt: at,
    };
    try {
      await Destination.create(doc);
    } catch (error) {
      // The same command handled by another replica at the same time.
      if (!isMongoDuplicateKey(error)) throw error;
      const first = await Destination.findOne({ orgId: input.orgId, commandId }).lean<DestinationDoc>();
      if (!first) throw error;
      return this.fromDoc(first);
    }
    return this.fromDoc(doc);
  }

  async updateDestination(orgId: number, formId: number, destinationId: number, change: DestinationChange): Promise<Destination> {
    let turnedOn = false;
    const updated = await this.transaction(async (session) => {
      const current = await this.destinationDoc(orgId, formId, destinationId, session);
      if (!current) throw destinationNotFound(destinationId);
      const now = new Date();
      const set: Partial<DestinationDoc> = { updatedAt: now };
      if (change.description !== undefined) set.description = change.description;
      if (change.transport) Object.assign(set, { transportParameters: JSON.stringify(sealTransport(this.cipher, change.transport).parameters), transportUpdatedAt: now });
      if (change.formatParameters) Object.assign(set, { formatParameters: JSON.stringify(change.formatParameters), formatUpdatedAt: now });
      const { Destination } = this.models;
      turnedOn = change.active === true && !current.active;
      if (turnedOn) {
        Object.assign(set, { active: true, deactivatedReason: null, deactivatedAt: null, failingSince: null });
      } else if (change.active === false && current.active) {
        await this.deactivate(destinationId, null, now, session);
      }
      const after = await Destination.findOneAndUpdate({ _id: destinationId }, { $set: set }, { returnDocument: 'after', session }).lean<DestinationDoc>();
      if (!after) throw destinationNotFound(destinationId);
      return this.fromDoc(after);
    });
    // Turned on: its deliveries held without a due time (redelivered while it was off, or held
    // by a release before issue 28) are due now, a batch at a time, after the commit.
    if (turnedOn) await this.resumeHeld(destinationId, new Date());
    return updated;
  }

  /** The pending deliveries of a destination with no due time, due at `at`, `deleteBatch` at a time. */
  private async resumeHeld(destinationId: number, at: Date): Promise<void> {
    const { Delivery } = this.models;
    const held = { destinationId, status: 'pending' as const, nextAttemptAt: null };
    for (;;) {
      // deliveries: { destinationId, _id } (the rest of the filter on those documents).
      const batch = await Delivery.find(held, { _id: 1 }).limit(deleteBatch).lean<Array<{ _id: number }>>();
      if (batch.length === 0) return;
      await Delivery.updateMany({ _id: { $in: batch.map((doc) => doc._id) }, ...held }, { $set: { nextAttemptAt: at } });
      if (batch.length < deleteBatch) return;
    }
  }

  async rotateSecret(orgId: number, formId: number, destinationId: number, overlapMs: number, commandId: string): Promise<Destination> {
    return this.transaction(async (session) => {
      const current = await this.destinationDoc(orgId, formId, destinationId, session);
      if (!current) throw destinationNotFound(destinationId);
      if (current.rotationCommandId === commandId) return this.fromDoc(current);
      const now = Date.now();
      const secrets = sealSigningSecrets(this.cipher, rotateSecrets(this.fromDoc(current).secrets, now, overlapMs));
      const after = await this.models.Destination.findOneAndUpdate(
        { _id: destinationId },
        {
          $set: {
            ...secretFields(secrets),
            rotationCommandId: commandId,
            updatedAt: new Date(now),
          },
        },
        { returnDocument: 'after', session },
      ).lean<DestinationDoc>();
      if (!after) throw destinationNotFound(destinationId);
      return this.fromDoc(after);
    });
  }

  /**
   * Its deliveries a batch at a time (the log may be long: one transaction would outgrow
   * MongoDB's 60 s transaction lifetime), then the destination with whatever came meanwhile,
   * in one transaction, then once more whatever a `createDeliveries` racing the delete
   * inserted after that transaction's snapshot (see createDeliveries for the other half).
   */
  async deleteDestination(orgId: number, formId: number, destinationId: number): Promise<void> {
    if (!(await this.destinationDoc(orgId, formId, destinationId))) throw destinationNotFound(destinationId);
    await this.deleteDeliveriesOf([destinationId]);
    await this.transaction(async (session) => {
      const deleted = await this.models.Destination.deleteOne({ _id: destinationId, orgId, formId }, { session });
      if (deleted.deletedCount === 0) throw destinationNotFound(destinationId);
      await this.models.Delivery.deleteMany({ destinationId }, { session });
      await this.models.DeliveryDocument.deleteMany({ destinationId }, { session });
    });
    await this.models.Delivery.deleteMany({ destinationId });
  }

  /** The deliveries of these destinations, `deleteBatch` at a time, each batch its own write. */
  private async deleteDeliveriesOf(destinationIds: number[]): Promise<void> {
    const { Delivery } = this.models;
    for (;;) {
      // deliveries: { destinationId, _id }.
      const batch = await Delivery.find({ destinationId: { $in: destinationIds } }, { _id: 1 }).limit(deleteBatch).lean<Array<{ _id: number }>>();
      if (batch.length === 0) return;
      await Delivery.deleteMany({ _id: { $in: batch.map((doc) => doc._id) } });
      if (batch.length < deleteBatch) return;
    }
  }

  async deleteFormDestinations(orgId: number, formId: number): Promise<number> {
    await this.ready;
    const { Destination, Delivery } = this.models;
    const destinationIds = (await Destination.find({ orgId, formId }, { _id: 1 }).lean<Array<{ _id: number }>>()).map((doc) => doc._id);
    if (destinationIds.length === 0) return 0;
    // The deliveries first, a batch at a time (a form's log may be long), then the
    // destinations with whatever came meanwhile, in one transaction (see deleteDestination).
    await this.deleteDeliveriesOf(destinationIds);
    const deleted = await this.transaction(async (session) => {
      await Delivery.deleteMany({ destinationId: { $in: destinationIds } }, { session });
      await this.models.DeliveryDocument.deleteMany({ destinationId: { $in: destinationIds } }, { session });
      return (await Destination.deleteMany({ _id: { $in: destinationIds }, orgId, formId }, { session })).deletedCount;
    });
    await Delivery.deleteMany({ destinationId: { $in: destinationIds } });
    return deleted;
  }

  async activeDestinations(orgId: number, formId: number): Promise<Destination[]> {
    await this.ready;
    const docs = await this.models.Destination.find({ orgId, formId, active: true }).sort({ _id: 1 }).lean<DestinationDoc[]>();
    return docs.map((doc) => this.fromDoc(doc));
  }

  // Deliveries --------------------------------------------------------------------------

  async createDeliveries(deliveries: NewDelivery[], now: number): Promise<number> {
    await this.ready;
    const { Delivery, Destination } = this.models;
    const at = new Date(now);
    let created = 0;
    for (const delivery of deliveries) {
      const exists = await Delivery.exists({ destinationId: delivery.destinationId, submissionId: delivery.submissionId });
      if (exists) continue;
      const doc: DeliveryDoc = {
        _id: await nextMongoId(this.connection, 'deliveries'),
        ...delivery,
        status: 'pending',
        scheduleStep: 0,
        nextAttemptAt: at,
        claimedUntil: new Date(0),
        claimToken: null,
        attempts: [],
        createdAt: at,
        updatedAt: at,
      };
      try {
        await Delivery.create(doc);
      } catch (error) {
        // The same event handled by another replica at the same time: one delivery.
        if (!isMongoDuplicateKey(error)) throw error;
        continue;
      }
      // Its destination deleted meanwhile: the delete's last pass ran before this insert, so
      // this one is removed here (else it would stay pending, never due, forever).
      if (!(await Destination.exists({ _id: delivery.destinationId }))) {
        await Delivery.deleteOne({ _id: doc._id });
        continue;
      }
      created += 1;
    }
    return created;
  }

  async dueDeliveries(now: number, perDestination: number, limit: number): Promise<DueCandidate[]> {
    await this.ready;
    const at = new Date(now);
    // Only the four fields the stages need are carried past the first one (never a body or
    // the attempts: $setWindowFields holds what it partitions in memory), and only `active`
    // of each destination. deliveries: { status, nextAttemptAt }; destinations: by _id.
    const rows = await this.models.Delivery.aggregate<{ _id: number; orgId: number; destinationId: number }>([
      { $match: { status: 'pending', nextAttemptAt: { $lte: at }, claimedUntil: { $lte: at } } },
      { $project: { _id: 1, orgId: 1, destinationId: 1, nextAttemptAt: 1 } },
      { $setWindowFields: { partitionBy: '$destinationId', sortBy: { nextAttemptAt: 1, _id: 1 }, output: { place: { $documentNumber: {} } } } },
      { $match: { place: { $lte: perDestination } } },
      { $sort: { nextAttemptAt: 1, _id: 1 } },
      { $lookup: { from: 'destinations', localField: 'destinationId', foreignField: '_id', pipeline: [{ $project: { _id: 0, active: 1 } }], as: 'destination' } },
      { $match: { 'destination.active': true } },
      { $limit: limit },
      { $project: { orgId: 1, destinationId: 1 } },
    ]);
    return rows.map((row) => ({ id: row._id, orgId: row.orgId, destinationId: row.destinationId }));
  }

  async inFlight(now: number): Promise<InFlight> {
    await this.ready;
    const rows = await this.models.Delivery.aggregate<{ _id: { orgId: number; destinationId: number }; n: number }>([
      { $match: { status: 'pending', claimedUntil: { $gt: new Date(now) } } },
      { $group: { _id: { orgId: '$orgId', destinationId: '$destinationId' }, n: { $sum: 1 } } },
    ]);
    const inFlight: InFlight = { byDestination: new Map(), byOrganization: new Map() };
    for (const { _id: key, n } of rows) {
      inFlight.byDestination.set(key.destinationId, n);
      inFlight.byOrganization.set(key.orgId, (inFlight.byOrganization.get(key.orgId) ?? 0) + n);
    }
    return inFlight;
  }

  async claim(ids: number[], now: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    await this.ready;
    const { Delivery, Destination } = this.models;
    const claimToken = randomUUID();
    const at = new Date(now);
    // Each document changes atomically: of two replicas claiming the same one, one wins.
    await Delivery.updateMany(
      { _id: { $in: ids }, status: 'pending', nextAttemptAt: { $lte: at }, claimedUntil: { $lte: at } },
      { $set: { claimedUntil: new Date(leaseUntil), claimToken } },
    );
    const claimed = await Delivery.find({ _id: { $in: ids }, claimToken }, { attempts: 0 }).lean<DeliveryDoc[]>();
    const destinationIds = [...new Set(claimed.map((doc) => doc.destinationId))];
    const destinations = new Map(
      (await Destination.find({ _id: { $in: destinationIds } }).lean<DestinationDoc[]>()).map((doc) => [doc._id, this.fromDoc(doc)]),
    );
    // A destination deleted, or turned off, since the deliveries were found due: not attempted
    // (the lease runs out; turned on again, they are due again).
    return claimed.flatMap((doc) => {
      const destination = destinations.get(doc.destinationId);
      return destination?.active ? [{ delivery: deliveryFromDoc(doc), destination, claimToken }] : [];
    });
  }

  async holdLease(claim: { deliveryId: number; claimToken: string }, leaseUntil: number): Promise<boolean> {
    await this.ready;
    const { Delivery } = this.models;
    const held = await Delivery.updateOne({ _id: claim.deliveryId, claimToken: claim.claimToken, status: 'pending' }, { $max: { claimedUntil: new Date(leaseUntil) } });
    return held.matchedCount > 0;
  }

  async recordBounces(orgId: number, addresses: string[], reason: string, at: string): Promise<void> {
    if (addresses.length === 0) return;
    await this.ready;
    const { BouncedAddress } = this.models;
    const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
    await BouncedAddress.bulkWrite(
      unique.map((address) => ({
        updateOne: { filter: { _id: `${orgId}:${address}` }, update: { $set: { orgId, address, bouncedAt: new Date(at), reason: reason.slice(0, 1024) } }, upsert: true },
      })),
    );
  }

  async bouncedAmong(orgId: number, addresses: string[], since: string): Promise<string[]> {
    if (addresses.length === 0) return [];
    await this.ready;
    const docs = await this.models.BouncedAddress.find(
      { _id: { $in: addresses.map((a) => `${orgId}:${a.toLowerCase()}`) }, bouncedAt: { $gte: new Date(since) } },
      { address: 1 },
    ).lean<Array<{ address: string }>>();
    const bounced = new Set(docs.map((doc) => doc.address));
    return addresses.filter((address) => bounced.has(address.toLowerCase()));
  }

  async recordAttempt(claim: { deliveryId: number; claimToken: string }, attempt: NewAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.transaction(async (session) => {
      const { Delivery } = this.models;
      const attemptDoc = { ...attempt, attemptedAt: new Date(attempt.attemptedAt) };
      const push = { attempts: { $each: [attemptDoc], $slice: -attemptsKeptPerDelivery } };
      const mine = await Delivery.findOneAndUpdate(
        { _id: claim.deliveryId, claimToken: claim.claimToken },
        {
          $push: push,
          $set: {
            status: outcome.status,
            nextAttemptAt: outcome.nextAttemptAt === null ? null : new Date(outcome.nextAttemptAt),
            claimedUntil: new Date(0),
            claimToken: null,
            updatedAt: attemptDoc.attemptedAt,
          },
          $inc: { scheduleStep: outcome.deferred ? 0 : 1 },
        },
        { projection: { destinationId: 1 }, session },
      ).lean<Pick<DeliveryDoc, 'destinationId'>>();
      const delivery = mine ?? (await Delivery.findOneAndUpdate({ _id: claim.deliveryId }, { $push: push }, { projection: { destinationId: 1 }, session }).lean<Pick<DeliveryDoc, 'destinationId'>>());
      if (!delivery) return; // deleted with its destination meanwhile
      await this.applyHealth(delivery.destinationId, outcome.health, session);
    });
  }

  async listDeliveries(orgId: number, formId: number, destinationId: number, page: PageRequest): Promise<DeliveryLogPage> {
    const destination = await this.destinationDoc(orgId, formId, destinationId);
    if (!destination) throw destinationNotFound(destinationId);
    const { Delivery } = this.models;
    // The count and the page from one snapshot, as SQLite answers them. deliveries: { destinationId, _id }.
    const { total, docs } = await this.snapshotRead(async (session) => ({
      total: await Delivery.countDocuments({ destinationId }).session(session),
      docs: await Delivery.find({ destinationId }).sort({ _id: -1 }).skip(page.offset).limit(page.limit).session(session).lean<DeliveryDoc[]>(),
    }));
    return { total, deliveries: docs.map((doc) => deliveryWithAttemptsFromDoc(held(doc, destination))) };
  }

  async redeliver(orgId: number, formId: number, destinationId: number, deliveryId: number, now: number): Promise<DeliveryWithAttempts> {
    const destination = await this.destinationDoc(orgId, formId, destinationId);
    if (!destination) throw destinationNotFound(destinationId);
    const at = new Date(now);
    const doc = await this.models.Delivery.findOneAndUpdate(
      { _id: deliveryId, destinationId },
      {
        $set: {
          status: 'pending',
          scheduleStep: 0,
          nextAttemptAt: destination.active ? at : null,
          claimedUntil: new Date(0),
          claimToken: null,
          updatedAt: at,
        },
      },
      { returnDocument: 'after' },
    ).lean<DeliveryDoc>();
    if (!doc) throw deliveryNotFound(deliveryId);
    return deliveryWithAttemptsFromDoc(held(doc, destination));
  }

  async performanceMetrics(orgId: number, range: { from: string; to: string }, after: MetricCursor | null, limit: number): Promise<DeliveryMetric[]> {
    await this.ready;
    const { Delivery, Destination, DeliveryDocument } = this.models;
    const from = new Date(range.from);
    const to = new Date(range.to);
    const afterFilter: QueryFilter<DeliveryDoc> = after
      ? { $or: [{ createdAt: { $gt: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), _id: { $gt: after.deliveryId } }] }
      : {};
    // deliveries: { orgId, createdAt, _id } (the report's index).
    const docs = await Delivery.find({ orgId, createdAt: { $gte: from, $lt: to }, ...afterFilter })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .select({ body: 1, formId: 1, destinationId: 1, submissionId: 1, status: 1, createdAt: 1, attempts: { $slice: -1 } })
      .lean<DeliveryDoc[]>();
    if (docs.length === 0) return [];
    const destinationIds = [...new Set(docs.map((doc) => doc.destinationId))];
    const destinations = new Map(
      (await Destination.find({ _id: { $in: destinationIds }, orgId }).select({ description: 1, active: 1, format: 1, transportType: 1 }).lean<DestinationDoc[]>()).map(
        (doc) => [doc._id, doc] as const,
      ),
    );
    const documentSizes = new Map(
      (
        await DeliveryDocument.aggregate<{ _id: number; size: number }>([
          { $match: { _id: { $in: docs.map((doc) => doc._id) } } },
          { $project: { size: { $binarySize: '$bytes' } } },
        ])
      ).map((doc) => [doc._id, doc.size] as const),
    );
    return docs.flatMap((doc): DeliveryMetric[] => {
      const destination = destinations.get(doc.destinationId);
      if (!destination) return []; // deleted with its destination since (SQLite's rows go with it too)
      const last = doc.attempts.at(-1);
      return [
        {
          deliveryId: doc._id,
          formId: doc.formId,
          destinationId: doc.destinationId,
          destinationDescription: destination.description,
          destinationActive: destination.active,
          format: destination.format,
          transportType: destination.transportType,
          submissionId: doc.submissionId,
          status: doc.status,
          createdAt: doc.createdAt.toISOString(),
          lastAttempt: last ? { attemptedAt: last.attemptedAt.toISOString(), durationMs: last.durationMs } : null,
          documentBytes: documentSizes.get(doc._id) ?? null,
          bodyBytes: Buffer.byteLength(doc.body ?? '', 'utf8'),
        },
      ];
    });
  }

  async sweepEnded(endedBefore: number, limit: number): Promise<number> {
    await this.ready;
    const { Delivery } = this.models;
    const ended: QueryFilter<DeliveryDoc> = { status: { $in: ['succeeded', 'failed'] as DeliveryDoc['status'][] }, updatedAt: { $lt: new Date(endedBefore) } };
    const batch = await Delivery.find(ended, { _id: 1 }).sort({ status: 1, updatedAt: 1 }).limit(limit).lean<Array<{ _id: number }>>();
    if (batch.length === 0) return 0;
    // The condition again: one redelivered meanwhile (pending, changed now) stays.
    const removed = (await Delivery.deleteMany({ _id: { $in: batch.map((doc) => doc._id) }, ...ended })).deletedCount;
    // Their documents: those of deliveries now gone (a kept one's document stays).
    const kept = new Set((await Delivery.find({ _id: { $in: batch.map((doc) => doc._id) } }, { _id: 1 }).lean<Array<{ _id: number }>>()).map((doc) => doc._id));
    await this.models.DeliveryDocument.deleteMany({ _id: { $in: batch.map((doc) => doc._id).filter((id) => !kept.has(id)) } });
    return removed;
  }

  async saveDocument(deliveryId: number, document: DeliveryDocument): Promise<DeliveryDocument> {
    await this.ready;
    const delivery = await this.models.Delivery.findOne({ _id: deliveryId }, { destinationId: 1 }).lean<Pick<DeliveryDoc, 'destinationId'>>();
    if (!delivery) throw deliveryNotFound(deliveryId);
    const doc: DeliveryDocumentDoc = {
      _id: deliveryId,
      destinationId: delivery.destinationId,
      ...document,
      message: JSON.stringify(document.message),
      createdAt: new Date(document.createdAt),
    };
    // The first kept wins: an upsert that only inserts.
    const { _id: _key, ...fields } = doc;
    try {
      await this.models.DeliveryDocument.updateOne({ _id: deliveryId }, { $setOnInsert: fields }, { upsert: true });
    } catch (error) {
      // Two upserts at once: one inserted, the other meets its key; the first kept wins either way.
      if (!isMongoDuplicateKey(error)) throw error;
    }
    return (await this.getDocument(deliveryId))!;
  }

  async getDocument(deliveryId: number): Promise<DeliveryDocument | null> {
    await this.ready;
    const doc = await this.models.DeliveryDocument.findOne({ _id: deliveryId }).lean<DeliveryDocumentDoc>();
    if (!doc) return null;
    return {
      message: JSON.parse(doc.message),
      contentType: doc.contentType,
      fileName: doc.fileName, bytes: Buffer.from(doc.bytes as unknown as Uint8Array), createdAt: doc.createdAt.toISOString() };
  }

  async getDelivery(orgId: number, formId: number, destinationId: number, deliveryId: number): Promise<Delivery> {
    if (!(await this.destinationDoc(orgId, formId, destinationId))) throw destinationNotFound(destinationId);
    const doc = await this.models.Delivery.findOne({ _id: deliveryId, destinationId }).lean<DeliveryDoc>();
    if (!doc) throw deliveryNotFound(deliveryId);
    return deliveryFromDoc(doc);
  }

  /**
   * At every start (a no-op once all are sealed with the current key), one destination at a
   * time, each a conditional update on the secret read: replicas starting together, or a
   * rotation meanwhile, never lose one. Until then clear secrets are read as they are (see
   * SecretCipher.open). Replicas of the release before sealing must be stopped before this
   * one starts: they would take a sealed value for the secret and sign with it.
   */
  async sealSecrets(): Promise<number> {
    await this.ready;
    const { Destination } = this.models;
    let sealed = 0;
    for await (const doc of Destination.find({}, { secret: 1, retiredSecrets: 1 }).lean<DestinationDoc[]>().cursor()) {
      const stored = storedSecrets(doc);
      if (!needSealing(this.cipher, stored)) continue;
      const secrets = sealSigningSecrets(this.cipher, openSigningSecrets(this.cipher, stored));
      // Every rotation changes the current secret: unchanged, so are the retired ones.
      const changed = await Destination.updateOne({ _id: doc._id, secret: doc.secret }, { $set: secretFields(secrets) });
      sealed += changed.modifiedCount;
    }
    return sealed;
  }

  // Shared steps -----------------------------------------------------------------------

  private fromDoc(doc: DestinationDoc): Destination {
    return destinationFromDoc(doc, this.cipher);
  }

  private async destinationDoc(orgId: number, formId: number, destinationId: number, session?: ClientSession): Promise<DestinationDoc | null> {
    await this.ready;
    return this.models.Destination.findOne({ _id: destinationId, orgId, formId }, null, { session: session ?? null }).lean<DestinationDoc>();
  }

  private async applyHealth(destinationId: number, health: DestinationHealthChange, session: ClientSession): Promise<void> {
    const { Destination } = this.models;
    switch (health.kind) {
      case 'healthy':
        await Destination.updateOne({ _id: destinationId, failingSince: { $ne: null } }, { $set: { failingSince: null } }, { session });
        return;
      case 'failing':
        await this.markFailing(destinationId, health.at, session);
        return;
      case 'unchanged':
        return;
      case 'gone':
        if (await Destination.exists({ _id: destinationId, active: true }).session(session)) {
          await this.deactivate(destinationId, 'gone', new Date(health.at), session);
        }
        return;
      case 'failing_for_good':
        await this.markFailing(destinationId, health.at, session);
        if (await Destination.exists({ _id: destinationId, active: true, failingSince: { $lte: new Date(health.cutoff) } }).session(session)) {
          await this.deactivate(destinationId, 'failing', new Date(health.at), session);
        }
        return;
    }
  }

  private async markFailing(destinationId: number, at: string, session: ClientSession): Promise<void> {
    await this.models.Destination.updateOne({ _id: destinationId, failingSince: null }, { $set: { failingSince: new Date(at) } }, { session });
  }

  /**
   * Inactive from `at`; its pending deliveries wait until it is active again. The destination
   * only: `active` is what holds them (see the class), so the transaction stays one document
   * however long the destination's log is.
   */
  private async deactivate(destinationId: number, reason: DestinationDoc['deactivatedReason'], at: Date, session: ClientSession): Promise<void> {
    await this.models.Destination.updateOne(
      { _id: destinationId },
      { $set: { active: false, deactivatedReason: reason, deactivatedAt: at, updatedAt: at } },
      { session },
    );
  }
}

/** Deliveries removed per batch when a form's destinations go. */
const deleteBatch = 1000;

/** A destination's secrets as stored (sealed), from its document. */
function storedSecrets(doc: Pick<DestinationDoc, 'secret' | 'retiredSecrets'>): SigningSecrets {
  return { current: doc.secret, retired: (doc.retiredSecrets ?? []).map((retired) => ({ secret: retired.secret, expiresAt: retired.expiresAt.toISOString() })) };
}

/** The document's fields of sealed secrets. */
function secretFields(sealed: SigningSecrets): Pick<DestinationDoc, 'secret' | 'retiredSecrets'> {
  return { secret: sealed.current, retiredSecrets: sealed.retired.map((retired) => ({ secret: retired.secret, expiresAt: new Date(retired.expiresAt) })) };
}

/** A pending delivery of an inactive destination has no due time while it is held (as SQLite stores it). */
function held(doc: DeliveryDoc, destination: Pick<DestinationDoc, 'active'>): DeliveryDoc {
  return !destination.active && doc.status === 'pending' ? { ...doc, nextAttemptAt: null } : doc;
}

function destinationFromDoc(doc: DestinationDoc, cipher: SecretCipher): Destination {
  const { _id, transportType, transportParameters, secret, retiredSecrets, deactivatedAt, failingSince, createdAt, updatedAt, ...fields } = doc;
  const { commandId: _commandId, rotationCommandId: _rotationCommandId, formatParameters, formatUpdatedAt, transportUpdatedAt, ...kept } = fields;
  return {
    id: _id,
    ...kept,
    formatParameters: JSON.parse(formatParameters ?? '{}') as FormatParameters,
    formatUpdatedAt: (formatUpdatedAt ?? createdAt).toISOString(),
    transportUpdatedAt: (transportUpdatedAt ?? updatedAt).toISOString(),
    transport: openTransport(cipher, { type: transportType, parameters: JSON.parse(transportParameters) } as DestinationTransportSettings),
    secrets: openSigningSecrets(cipher, storedSecrets({ secret, retiredSecrets })),
    deactivatedAt: deactivatedAt?.toISOString() ?? null,
    failingSince: failingSince?.toISOString() ?? null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

function deliveryFromDoc(doc: DeliveryDoc): Delivery {
  const { _id, nextAttemptAt, claimedUntil: _claimedUntil, claimToken: _claimToken, attempts: _attempts, createdAt, updatedAt, ...fields } = doc;
  return { id: _id, ...fields, nextAttemptAt: nextAttemptAt?.getTime() ?? null, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

function deliveryWithAttemptsFromDoc(doc: DeliveryDoc): DeliveryWithAttempts {
  return {
    ...deliveryFromDoc(doc),
    attempts: doc.attempts.map((attempt) => ({ deliveryId: doc._id, ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })),
  };
}
