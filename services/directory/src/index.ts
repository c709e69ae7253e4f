export * from './store';
export * from './domain/records';
export { registerDirectoryService, directoryServiceName, startDirectoryService } from './service';
export type { DirectoryDeps } from './handlers/deps';
