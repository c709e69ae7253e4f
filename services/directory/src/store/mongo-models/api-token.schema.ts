import { Schema } from 'mongoose';
import type { ApiToken, ApiTokenSecret } from '../../domain/records';
import { orgScopedFields, requiredField, type MongoDoc } from '@formcast/storage';

export type ApiTokenDoc = MongoDoc<ApiToken & ApiTokenSecret, 'createdAt' | 'revokedAt'>;

export const apiTokenSchema = new Schema<ApiTokenDoc>(
  {
    ...orgScopedFields,
    tokenHash: requiredField(String),
    label: { type: String, default: '' },
    createdAt: requiredField(Date),
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

// organizations.findOrgIdByTokenHash (every authenticated request); a hash names one token.
apiTokenSchema.index({ tokenHash: 1 }, { unique: true });
// organizations.listTokens, ascending by id.
apiTokenSchema.index({ orgId: 1, _id: 1 });
