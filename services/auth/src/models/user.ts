import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { ROLES, type Role } from '@portal/contracts';
import { versionPlugin } from '@portal/service-kit';

export interface UserDoc {
  _id: Types.ObjectId;
  email: string;
  passwordHash: string;
  fullName: string;
  role: Role;
  preset: boolean;
  /** Optimistic concurrency of the directory's edits (versionPlugin). */
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserDoc>(
  {
    // Stored lower-case, so the unique index makes email case-insensitively unique on every server.
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    passwordHash: { type: String, required: true },
    fullName: { type: String, required: true, trim: true },
    role: { type: String, enum: ROLES, required: true, default: 'CANDIDATE', index: true },
    preset: { type: Boolean, default: false },
  },
  { timestamps: true },
);
userSchema.plugin(versionPlugin);
userSchema.index({ createdAt: -1 });
// The directory's order (newest first, _id breaking ties), alone and behind its role filter.
userSchema.index({ createdAt: -1, _id: -1 });
userSchema.index({ role: 1, createdAt: -1, _id: -1 });

export const userModel = (store: Connection): Model<UserDoc> =>
  (store.models.User as Model<UserDoc>) ?? store.model<UserDoc>('User', userSchema, 'users');
