export * from './store';
export * from './domain/records';
export { registerPushService, startPushService, pushServiceName } from './service';
export { OutboxRelay } from './outbox/outbox-relay';
export { DirectoryLookup } from './directory-cache/directory-lookup';
export type { PushDeps } from './handlers/deps';
