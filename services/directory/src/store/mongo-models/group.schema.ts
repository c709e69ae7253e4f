import { Schema } from 'mongoose';
import type { Group } from '../../domain/records';
import { orgScopedFields, requiredField, type MongoDoc } from '@formcast/storage';

/**
 * A group's forms are the forms whose `groupId` is the group; its devices are the devices
 * whose `groupIds` hold it. The group document holds neither, so each fact lives in one place.
 */
export type GroupDoc = MongoDoc<Omit<Group, 'formIds' | 'deviceIds' | 'tags'>> & {
  /** Absent on groups saved before tags existed. */
  tags?: string[];
  /**
   * Bumped by every transaction that relies on the group existing (moving forms or devices
   * into it). That write makes such a transaction conflict with a concurrent group deletion,
   * which snapshot isolation would otherwise let both commit, leaving members of a deleted
   * group. Default, never deleted, is not bumped.
   */
  changeCount: number;
};

export const groupSchema = new Schema<GroupDoc>(
  {
    ...orgScopedFields,
    name: requiredField(String),
    isDefault: requiredField(Boolean),
    tags: { type: [String], default: undefined },
    changeCount: { type: Number, default: 0 },
  },
  { versionKey: false },
);

// groups.findByName; one name per organization.
groupSchema.index({ orgId: 1, name: 1 }, { unique: true });
// groups.list and names, ascending by id.
groupSchema.index({ orgId: 1, _id: 1 });
// The organization's Default group (where forms go home), and only one of them.
groupSchema.index({ orgId: 1 }, { unique: true, partialFilterExpression: { isDefault: true } });
