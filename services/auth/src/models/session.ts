import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * A signed-in session. Each token names one (claim `sid`); a token whose session is gone is refused
 * by every service. Ended sessions are deleted; expired ones are refused by their `expiresAt` and
 * swept now and then (FerretDB has no TTL indexes).
 */
export interface SessionDoc {
  /** A random id: the token's `sid`. */
  _id: string;
  userId: Types.ObjectId;
  createdAt: Date;
  expiresAt: Date;
}

const sessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export const sessionModel = (store: Connection): Model<SessionDoc> =>
  (store.models.Session as Model<SessionDoc>) ?? store.model<SessionDoc>('Session', sessionSchema, 'sessions');

/** A one-time password-reset link: only the SHA-256 of its token is stored. */
export interface PasswordResetDoc {
  /** SHA-256 (hex) of the token in the link. */
  _id: string;
  userId: Types.ObjectId;
  createdBy: Types.ObjectId;
  expiresAt: Date;
}

const passwordResetSchema = new Schema<PasswordResetDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    createdBy: { type: Schema.Types.ObjectId, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export const passwordResetModel = (store: Connection): Model<PasswordResetDoc> =>
  (store.models.PasswordReset as Model<PasswordResetDoc>) ??
  store.model<PasswordResetDoc>('PasswordReset', passwordResetSchema, 'password_resets');
