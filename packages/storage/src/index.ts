export * from './sqlite';
export * from './sqlite-counter';
export * from './mongo';
export * from './sqlite-queries';
export { sqliteCheckpointer } from './sqlite-checkpointer';
