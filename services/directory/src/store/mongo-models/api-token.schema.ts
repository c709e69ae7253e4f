import { Schema, type Connection, type Model } from 'mongoose';

export interface ApiTokenDoc {
  _id: number;
  orgId: number;
  tokenHash: string;
  label: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export const apiTokenSchema = new Schema<ApiTokenDoc>(
  {
    _id: { type: Number, required: true },
    orgId: { type: Number, required: true },
    tokenHash: { type: String, required: true },
    label: { type: String, default: '' },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

// findOrgIdByTokenHash (every authenticated request); a hash names one token.
apiTokenSchema.index({ tokenHash: 1 }, { unique: true });
// listApiTokens, ascending by id.
apiTokenSchema.index({ orgId: 1, _id: 1 });

export function apiTokenModel(connection: Connection): Model<ApiTokenDoc> {
  return (
    (connection.models.ApiToken as Model<ApiTokenDoc> | undefined) ??
    connection.model<ApiTokenDoc>('ApiToken', apiTokenSchema, 'api_tokens')
  );
}
