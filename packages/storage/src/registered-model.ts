import type { Connection, Model, Schema } from 'mongoose';

/** The model `name` on this connection, registered there once (a connection refuses a second registration). */
export function registeredModel<D>(connection: Connection, name: string, schema: Schema<D>, collection: string): Model<D> {
  return (connection.models[name] as Model<D> | undefined) ?? connection.model<D>(name, schema, collection);
}
