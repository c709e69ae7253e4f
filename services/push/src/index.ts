export * from './store';
export * from './domain/records';
export { registerPushService, startPushService, pushServiceStarter, pushServiceName } from './service';
export { DispatchRelease } from './release/dispatch-release';
export { OutboxRelay } from './outbox/outbox-relay';
export { DirectoryLookup } from './directory-cache/directory-lookup';
export type { PushDeps } from './handlers/deps';
