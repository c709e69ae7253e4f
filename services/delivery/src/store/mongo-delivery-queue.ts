import { randomUUID } from 'node:crypto';
import { isMongoDuplicateKey, nextMongoId } from '@formcast/storage';
import type { ClientSession, QueryFilter } from 'mongoose';
import type { AttemptOutcome } from '../domain/attempt-outcome';
import type { DueCandidate, InFlight } from '../domain/fair-selection';
import type { Delivery, DeliveryWithAttempts, NewDelivery } from '../domain/records';
import { attemptsKeptPerDelivery, type ClaimedDelivery, type DeliveryLogPage, type DeliveryQueue, type HandOff, type NewAttempt, type PageRequest } from './delivery-store';
import { deliveryFromDoc, deliveryWithAttemptsFromDoc, held } from './mongo-delivery-docs';
import { MongoDeliveryPart, type MongoDeliveryContext } from './mongo-delivery-part';
import type { MongoDestinations } from './mongo-destinations';
import type { DeliveryDoc, DestinationDoc } from './mongo-models';
import { deliveryNotFound, destinationNotFound } from './store-errors';

/**
 * The delivery queue on MongoDB: deliveries with their attempts inside, their schedule and
 * leases (conditional updates, so any number of replicas can claim at once). Part of
 * MongoDeliveryStore; an attempt's outcome changes its destination's health through
 * MongoDestinations, in the same transaction.
 */
export class MongoDeliveryQueue extends MongoDeliveryPart implements DeliveryQueue {
  constructor(
    context: MongoDeliveryContext,
    private readonly destinations: MongoDestinations,
  ) {
    super(context);
  }

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

  async recordAttempt(
    claim: { deliveryId: number; claimToken: string },
    attempt: NewAttempt,
    outcome: AttemptOutcome,
    handOff?: HandOff,
  ): Promise<ClaimedDelivery | null> {
    return this.transaction(async (session) => {
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
      if (!delivery) return null; // deleted with its destination meanwhile
      await this.destinations.applyHealth(delivery.destinationId, outcome.health, session);
      return mine && handOff ? this.handOff(delivery.destinationId, handOff, session) : null;
    });
  }

  /** See HandOff: the oldest due delivery, claimed when it is of `destinationId`. deliveries: { status, nextAttemptAt }. */
  private async handOff(destinationId: number, handOff: HandOff, session: ClientSession): Promise<ClaimedDelivery | null> {
    const { Delivery, Destination } = this.models;
    const now = handOff.now();
    const at = new Date(now);
    const due = { status: 'pending' as const, nextAttemptAt: { $lte: at }, claimedUntil: { $lte: at } };
    // A destination turned off has its pending deliveries without a due time: the oldest due is of an active one.
    const oldest = await Delivery.findOne(due, { destinationId: 1 }, { session }).sort({ nextAttemptAt: 1, _id: 1 }).lean<Pick<DeliveryDoc, '_id' | 'destinationId'>>();
    if (oldest?.destinationId !== destinationId) return null;
    const destination = await Destination.findOne({ _id: destinationId }, null, { session }).lean<DestinationDoc>();
    if (!destination?.active) return null;
    const claimToken = randomUUID();
    const doc = await Delivery.findOneAndUpdate(
      { _id: oldest._id, ...due },
      { $set: { claimedUntil: new Date(now + handOff.leaseMs), claimToken } },
      { projection: { attempts: 0 }, returnDocument: 'after', session },
    ).lean<DeliveryDoc>();
    return doc ? { delivery: deliveryFromDoc(doc), destination: this.fromDoc(destination), claimToken } : null;
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

  async getDelivery(orgId: number, formId: number, destinationId: number, deliveryId: number): Promise<Delivery> {
    if (!(await this.destinationDoc(orgId, formId, destinationId))) throw destinationNotFound(destinationId);
    const doc = await this.models.Delivery.findOne({ _id: deliveryId, destinationId }).lean<DeliveryDoc>();
    if (!doc) throw deliveryNotFound(deliveryId);
    return deliveryFromDoc(doc);
  }

}
