export * from './envelope';
export * from './errors';
export * from './directory';
export * from './push-events';
export * from './push';
