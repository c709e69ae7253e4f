import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import { registeredModel, requiredField, type MongoDoc } from '@formcast/storage';
import type { ContentColumn, ContentTable, Resource } from '../../domain/records';

export type ContentColumnDoc = ContentColumn;
export type ContentTableDoc = ContentTable;

/** A resource's metadata; its bytes are the GridFS file `fileId` of the `resource_files` bucket. */
export type ResourceDoc = MongoDoc<Resource, 'createdAt' | 'updatedAt'> & {
  fileId: mongo.ObjectId;
  /** The last command that changed it (see ResourceStore). */
  commandId: string;
};

// `id: false`: these documents have a field of their own named id.
const columnSchema = new Schema<ContentColumnDoc>(
  {
    name: requiredField(String),
    number: requiredField(Number),
    id: requiredField(String),
  },
  { _id: false, id: false },
);

const tableSchema = new Schema<ContentTableDoc>(
  {
    tableName: requiredField(String),
    sheetName: requiredField(String),
    id: requiredField(String),
    columns: { type: [columnSchema], default: [] },
  },
  { _id: false, id: false },
);

/** The name of the { orgId, commandId } index, unique from issue 28 on (not unique before). */
export const commandIndexName = 'orgId_1_commandId_1';

export const resourceSchema = new Schema<ResourceDoc>(
  {
    _id: requiredField(Number),
    orgId: requiredField(Number),
    originalFilename: requiredField(String),
    description: { type: String, default: '' },
    contentType: requiredField(String),
    version: requiredField(Number),
    identifier: requiredField(String),
    byteSize: requiredField(Number),
    sha256: requiredField(String),
    contentSummary: { type: [tableSchema], default: [] },
    fileId: requiredField(Schema.Types.ObjectId),
    commandId: requiredField(String),
    createdAt: requiredField(Date),
    updatedAt: requiredField(Date),
  },
  { versionKey: false },
);

// listResources, ascending by id; and every lookup by id, which also filters by orgId.
resourceSchema.index({ orgId: 1, _id: 1 });
// A command applies once: a redelivered create finds the resource it made, and of two
// deliveries creating at once only one inserts (E11000 for the other; see MongoResourceStore).
// Releases before issue 28 had this index without `unique`; the store's start drops that one
// first (see MongoResourceStore.prepare), since MongoDB refuses one key pattern with two options.
resourceSchema.index({ orgId: 1, commandId: 1 }, { unique: true, name: commandIndexName });

export function resourceModel(connection: Connection): Model<ResourceDoc> {
  return registeredModel(connection, 'Resource', resourceSchema, 'resources');
}
