export * from './store/directory-store';
export * from './domain/records';
