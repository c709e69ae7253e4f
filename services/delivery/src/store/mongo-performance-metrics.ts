import type { QueryFilter } from 'mongoose';
import type { DeliveryMetric, MetricCursor } from '../domain/performance-metrics';
import type { PerformanceMetricReads } from './delivery-store';
import { MongoDeliveryPart } from './mongo-delivery-part';
import type { DeliveryDoc, DestinationDoc } from './mongo-models';

/** The deliveries of a month, as report.md's performance metric report reads them: part of MongoDeliveryStore. */
export class MongoPerformanceMetrics extends MongoDeliveryPart implements PerformanceMetricReads {
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
}
