import type { BounceList } from './delivery-store';
import { MongoDeliveryPart } from './mongo-delivery-part';

/** An organization's bounce list (addresses an SMTP server refused for good): part of MongoDeliveryStore. */
export class MongoBounces extends MongoDeliveryPart implements BounceList {
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
}
