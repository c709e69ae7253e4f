import { distinctRuns, isMongoDuplicateKey, nextMongoId } from '@formcast/storage';
import type { ClientSession } from 'mongoose';
import type { DestinationHealthChange } from '../domain/attempt-outcome';
import type { Destination, DestinationChange, NewDestination, SubmissionTarget } from '../domain/records';
import { targetTransport } from '../domain/submission-target';
import { rotateSecrets } from '../domain/signing-secrets';
import { needSealing, openSigningSecrets, sealSigningSecrets, sealTransport } from '../secrets';
import type { DestinationStore, FormRef } from './delivery-store';
import { secretFields, storedSecrets } from './mongo-delivery-docs';
import { MongoDeliveryPart } from './mongo-delivery-part';
import type { DestinationDoc } from './mongo-models';
import { destinationNotFound } from './store-errors';

/**
 * Destinations on MongoDB: their documents, sealed secrets and health (failing, deactivated),
 * and the cascade of their deliveries when they go. Part of MongoDeliveryStore; the delivery
 * queue writes health through `applyHealth` inside its own transactions.
 */
export class MongoDestinations extends MongoDeliveryPart implements DestinationStore {
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

  async formsWithDestinations(after: FormRef | undefined, limit: number): Promise<FormRef[]> {
    await this.ready;
    const filter = after ? { $or: [{ orgId: { $gt: after.orgId } }, { orgId: after.orgId, formId: { $gt: after.formId } }] } : {};
    // On the (orgId, formId, _id) index: `limit` destinations give at least one form, and
    // at most `limit`; the last may have more destinations past the page, which the next
    // page (after it) skips.
    const docs = await this.models.Destination.find(filter, { _id: 0, orgId: 1, formId: 1 })
      .sort({ orgId: 1, formId: 1, _id: 1 })
      .limit(limit)
      .lean<FormRef[]>();
    return distinctRuns(docs, (a, b) => a.orgId === b.orgId && a.formId === b.formId).map(({ orgId, formId }) => ({ orgId, formId }));
  }

  async activeDestinations(orgId: number, formId: number): Promise<SubmissionTarget[]> {
    await this.ready;
    const docs = await this.models.Destination.find({ orgId, formId, active: true }, { orgId: 1, formId: 1, format: 1, transportType: 1, transportParameters: 1 })
      .sort({ _id: 1 })
      .lean<Array<Pick<DestinationDoc, '_id' | 'orgId' | 'formId' | 'format' | 'transportType' | 'transportParameters'>>>();
    return docs.map((doc) => ({
      id: doc._id,
      orgId: doc.orgId,
      formId: doc.formId,
      format: doc.format,
      transport: targetTransport(doc.transportType, doc.transportParameters),
    }));
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

  // Health ------------------------------------------------------------------------------

  async applyHealth(destinationId: number, health: DestinationHealthChange, session: ClientSession): Promise<void> {
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
