import { Schema, type InferRawDocType } from 'mongoose';
import { storeModel } from '@portal/service-kit';

const sessionFields = {
  // A random id: the token's `sid`.
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, required: true, index: true },
  createdAt: { type: Date, required: true },
  expiresAt: { type: Date, required: true },
};

/**
 * A signed-in session. Each token names one (claim `sid`); a token whose session is gone is refused
 * by every service. Ended sessions are deleted; expired ones are refused by their `expiresAt` and
 * swept now and then (FerretDB has no TTL indexes).
 */
export type SessionDoc = InferRawDocType<typeof sessionFields>;

const sessionSchema = new Schema<SessionDoc>(sessionFields, { versionKey: false });

export const sessionModel = storeModel<SessionDoc>('Session', sessionSchema, 'sessions');

const passwordResetFields = {
  // SHA-256 (hex) of the token in the link.
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, required: true, index: true },
  createdBy: { type: Schema.Types.ObjectId, required: true },
  // Which of a person's links is the newest, the only one that works (links from before have none: oldest).
  createdAt: { type: Date },
  expiresAt: { type: Date, required: true },
};

/** A one-time password-reset link: only the SHA-256 of its token is stored. */
export type PasswordResetDoc = InferRawDocType<typeof passwordResetFields>;

const passwordResetSchema = new Schema<PasswordResetDoc>(passwordResetFields, { versionKey: false });

export const passwordResetModel = storeModel<PasswordResetDoc>('PasswordReset', passwordResetSchema, 'password_resets');
