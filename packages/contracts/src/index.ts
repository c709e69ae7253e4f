export * from './envelope';
export * from './errors';
export * from './directory';
export * from './resources';
export * from './push-events';
export * from './push';
export * from './notifier';
