export * from './store';
export * from './domain/records';
// What a directory is filled with outside its handlers (tests seeding a store).
export { foundOrganization } from './domain/organization-rules';
export { newEnrolledDevice } from './domain/device-rules';
export { registerDirectoryService, directoryServiceName, startDirectoryService } from './service';
export type { DirectoryDeps } from './handlers/deps';
