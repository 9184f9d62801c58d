import { Schema, type Types } from 'mongoose';
import { ROLES, joinName, splitFullName, type LinkScope, type Role } from '@portal/contracts';
import { indexNewestFirst, storeModel, versionPlugin } from '@portal/service-kit';

export interface DirectoryLink {
  id: string;
  dn: string;
  /** Set while the person is out of the directory's scope or disabled there: they cannot sign in. */
  suspendedAt: Date | null;
  /** Set when the suspension outlived the grace (LDAP_GRACE_DAYS); their sessions ended. */
  deactivatedAt: Date | null;
  /** Why they are suspended, as the sync screen shows it. */
  reason: string;
}

export interface UserDoc {
  _id: Types.ObjectId;
  email: string;
  passwordHash: string;
  /** «Фамилия Имя Отчество», built from the parts (accounts from before them are migrated at start). */
  fullName: string;
  lastName?: string;
  firstName?: string;
  middleName?: string;
  department?: string;
  position?: string;
  role: Role;
  preset: boolean;
  /**
   * A transient candidate «по ссылке»: their one session reaches this quiz only, and the progress
   * service deletes them after CANDIDATE_RETENTION_DAYS. Their `email` is a placeholder (people may
   * take several links, or already have an account); the address they gave is `candidateEmail`.
   */
  linkScope?: LinkScope | null;
  candidateEmail?: string;
  /** Corporate sign-in (OpenID Connect): the provider's accounts linked to this person, by issuer and `sub`. */
  identities?: Array<{ issuer: string; subject: string }>;
  /**
   * The person's entry in the corporate directory (LDAP / AD sync), by its stable id (entryUUID,
   * objectGUID). Only accounts the sync made or linked carry it, and only they are ever suspended.
   */
  directory?: DirectoryLink | null;
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
    lastName: { type: String, trim: true },
    firstName: { type: String, trim: true },
    middleName: { type: String, trim: true },
    department: { type: String, trim: true, default: '' },
    position: { type: String, trim: true, default: '' },
    role: { type: String, enum: ROLES, required: true, default: 'CANDIDATE', index: true },
    preset: { type: Boolean, default: false },
    linkScope: {
      type: new Schema({ linkId: String, courseId: String, lessonId: String, quizId: String }, { _id: false }),
      default: null,
    },
    candidateEmail: { type: String, trim: true },
    directory: {
      type: new Schema({ id: String, dn: String, suspendedAt: Date, deactivatedAt: Date, reason: String }, { _id: false }),
      default: undefined,
    },
    identities: {
      type: [new Schema({ issuer: { type: String, required: true }, subject: { type: String, required: true } }, { _id: false })],
      default: undefined,
    },
  },
  { timestamps: true },
);
userSchema.plugin(versionPlugin);
// A new account gets its parts from its full name, or its full name from the parts it was given.
userSchema.pre('validate', function () {
  if (!this.isNew) return;
  if (this.lastName || this.firstName) this.fullName = joinName(this);
  else Object.assign(this, splitFullName(this.fullName ?? ''));
});
userSchema.index({ createdAt: -1 });
// The directory's order, alone and behind its role, department and position filters.
indexNewestFirst(userSchema, ['role', 'department', 'position']);
// The name-parts migration finds the accounts still without parts.
userSchema.index({ firstName: 1 });
// The directory sync reads a page's people by their directory ids.
userSchema.index({ 'directory.id': 1 });
// A corporate sign-in finds its person by the provider's (issuer, sub).
userSchema.index({ 'identities.issuer': 1, 'identities.subject': 1 });

export const userModel = storeModel<UserDoc>('User', userSchema, 'users');

/**
 * People with an account of their own: not a candidate «по ссылке», whose transient account (with a
 * placeholder email) is listed under its link, not in the directory, the student count or an audience.
 */
export const NOT_LINK_CANDIDATE = { linkScope: null } as const;
