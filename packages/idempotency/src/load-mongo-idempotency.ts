/**
 * The MongoDB key store, the key collection and its model, loaded on demand: they load
 * mongoose, which a process on SQLite never needs. `require`, not `import()` (see openStore in
 * @formcast/storage).
 */
export function loadMongoIdempotency(): typeof import('./mongo-idempotency-store') &
  typeof import('./mongo-key-collection') &
  typeof import('./idempotency-key.schema') {
  return {
    ...(require('./mongo-idempotency-store') as typeof import('./mongo-idempotency-store')),
    ...(require('./mongo-key-collection') as typeof import('./mongo-key-collection')),
    ...(require('./idempotency-key.schema') as typeof import('./idempotency-key.schema')),
  };
}
