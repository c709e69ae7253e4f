export * from './app-error';
export * from './settings';
export * from './logger';
export * from './lifecycle';
export * from './parse-payload';
export * from './secrets';
export * from './running-service';
export * from './heap-growth';
