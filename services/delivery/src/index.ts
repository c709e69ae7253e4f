export * from './store';
export * from './domain/records';
export { registerDeliveryService, startDelivery, startDeliveryService, deliveryServiceName, type DeliveryServiceOptions } from './service';
export { DeliveryWorker } from './worker/delivery-worker';
export { HttpSender } from './sender/http-sender';
export type { DeliveryDeps } from './handlers/deps';
export { SecretCipher, SecretsKeyError, secretCipherFromSettings, generatedKeyFileName } from './secrets';
export { RetentionSweep } from './worker/retention-sweep';
