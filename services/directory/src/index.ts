export * from './store';
export * from './domain/records';
export { registerDirectoryService, directoryServiceName } from './service';
export type { DirectoryDeps } from './handlers/deps';
