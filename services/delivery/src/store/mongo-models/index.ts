import type { Connection } from 'mongoose';
import { bouncedAddressModel } from './bounced-address.schema';
import { deliveryModel } from './delivery.schema';
import { deliveryDocumentModel } from './delivery-document.schema';
import { destinationModel } from './destination.schema';

export type { AttemptDoc, DeliveryDoc } from './delivery.schema';
export type { DestinationDoc } from './destination.schema';
export type { DeliveryDocumentDoc } from './delivery-document.schema';

/** The delivery service's models on one connection, registered there once. */
export function deliveryModels(connection: Connection) {
  return { Destination: destinationModel(connection), Delivery: deliveryModel(connection), DeliveryDocument: deliveryDocumentModel(connection), BouncedAddress: bouncedAddressModel(connection) };
}

export type DeliveryModels = ReturnType<typeof deliveryModels>;
