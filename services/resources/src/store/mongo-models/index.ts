import type { Connection } from 'mongoose';
import { resourceModel } from './resource.schema';

export { commandIndexName } from './resource.schema';

export type { ContentTableDoc, ResourceDoc } from './resource.schema';

/** The resources service's models on one connection, registered there once. */
export function resourceModels(connection: Connection) {
  return { Resource: resourceModel(connection) };
}

export type ResourceModels = ReturnType<typeof resourceModels>;
