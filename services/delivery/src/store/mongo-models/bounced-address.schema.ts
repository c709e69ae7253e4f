import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel } from '@formcast/storage';

/** An address on an organization's bounce list (see DeliveryStore.recordBounces); `_id` is `<orgId>:<address in lower case>`. */
export interface BouncedAddressDoc {
  _id: string;
  orgId: number;
  address: string;
  bouncedAt: Date;
  reason: string;
}

export const bouncedAddressSchema = new Schema<BouncedAddressDoc>(
  {
    _id: { type: String, required: true },
    orgId: { type: Number, required: true },
    address: { type: String, required: true },
    bouncedAt: { type: Date, required: true },
    reason: { type: String, required: true },
  },
  { versionKey: false },
);

export function bouncedAddressModel(connection: Connection): Model<BouncedAddressDoc> {
  return registeredModel(connection, 'BouncedAddress', bouncedAddressSchema, 'bounced_addresses');
}
