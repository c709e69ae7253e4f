import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A group's forms are the forms whose `groupId` is the group; its devices are the devices
 * whose `groupIds` hold it. The group document holds neither, so each fact lives in one place.
 */
export interface GroupDoc {
  _id: number;
  orgId: number;
  name: string;
  isDefault: boolean;
  /**
   * Bumped by every transaction that relies on the group existing (moving forms or devices
   * into it). That write makes such a transaction conflict with a concurrent deleteGroup,
   * which snapshot isolation would otherwise let both commit, leaving members of a deleted
   * group. Default, never deleted, is not bumped.
   */
  changeCount: number;
}

export const groupSchema = new Schema<GroupDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    name: { type: String, required: true },
    isDefault: { type: Boolean, required: true },
    changeCount: { type: Number, default: 0 },
  },
  { versionKey: false },
);

// findGroupByName and the name checks; one name per organization.
groupSchema.index({ orgId: 1, name: 1 }, { unique: true });
// listGroups, ascending by id.
groupSchema.index({ orgId: 1, _id: 1 });
// The organization's Default group (where forms go home), and only one of them.
groupSchema.index({ orgId: 1 }, { unique: true, partialFilterExpression: { isDefault: true } });

export function groupModel(connection: Connection): Model<GroupDoc> {
  return (
    (connection.models.Group as Model<GroupDoc> | undefined) ??
    connection.model<GroupDoc>('Group', groupSchema, 'groups')
  );
}
