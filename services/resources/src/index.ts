export * from './store';
export * from './domain/records';
export { registerResourcesService, resourcesServiceName, startResourcesService } from './service';
export type { ResourcesDeps } from './handlers/deps';
