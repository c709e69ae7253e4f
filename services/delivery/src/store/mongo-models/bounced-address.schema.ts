import { Schema, type Connection, type Model } from 'mongoose';
import { registeredModel, requiredField } from '@formcast/storage';

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
    _id: requiredField(String),
    orgId: requiredField(Number),
    address: requiredField(String),
    bouncedAt: requiredField(Date),
    reason: requiredField(String),
  },
  { versionKey: false },
);

export function bouncedAddressModel(connection: Connection): Model<BouncedAddressDoc> {
  return registeredModel(connection, 'BouncedAddress', bouncedAddressSchema, 'bounced_addresses');
}
