export * from './delivery-store';
export { SqliteDeliveryStore } from './sqlite-delivery-store';
export { deliveryMigrations } from './sqlite-migrations';
// MongoDeliveryStore is not exported here: importing it loads mongoose. openDeliveryStore
// loads it when MONGO_URL is set; its tests import './mongo-delivery-store' directly.
export { openDeliveryStore } from './open-delivery-store';
