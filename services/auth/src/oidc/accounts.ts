/**
 * Who a corporate sign-in is: the person linked to the provider's (issuer, sub); else, on a first
 * sign-in, the account with the same email when the provider asserts the email is verified (and only
 * then: nothing else links, so the provider cannot take over an account); else a new person, made
 * just in time with the role of their groups (docs/decisions/corporate-sign-in).
 */
import type { Model } from 'mongoose';
import { emailField, joinName, type Role } from '@portal/contracts';
import { isDuplicateKey } from '@portal/service-kit';
import type { AuthConfig } from '../config';
import { unusablePassword } from '../commands/staffImport';
import type { UserDoc } from '../models/user';
import { SignInRefused } from './relyingParty';

export interface ProviderPerson {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  lastName: string;
  firstName: string;
  middleName: string;
  department: string;
  position: string;
  groups: string[];
}

const emailClaim = emailField('email');
const text = (value: unknown, max = 200): string => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/** The claims as the portal reads them, by the configured claim names. */
export function personFromClaims(claims: Record<string, unknown>, config: AuthConfig, issuer: string): ProviderPerson {
  const email = emailClaim.safeParse(claims.email);
  const groups = claims[config.OIDC_CLAIM_GROUPS];
  return {
    issuer,
    subject: text(claims.sub, 255),
    email: email.success ? email.data : null,
    // Only a real `true`: a string "true" or a missing claim is not an assertion.
    emailVerified: claims.email_verified === true,
    lastName: text(claims.family_name),
    firstName: text(claims.given_name),
    middleName: text(claims[config.OIDC_CLAIM_MIDDLE_NAME]),
    department: text(claims[config.OIDC_CLAIM_DEPARTMENT]),
    position: text(claims[config.OIDC_CLAIM_POSITION]),
    groups: Array.isArray(groups)
      ? groups.filter((g): g is string => typeof g === 'string')
      : typeof groups === 'string'
        ? [groups]
        : [],
  };
}

/** Stronger first: a person in several mapped groups gets the strongest of their roles. */
const STRENGTH: readonly Role[] = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'];

/**
 * The role of a person's groups by OIDC_GROUP_ROLES (exact group names; no pattern, no default to
 * ADMIN), CLIENT when none of their groups is mapped. ADMIN comes only from a group the mapping names
 * for ADMIN.
 */
export function roleOfGroups(groups: readonly string[], mapping: Readonly<Record<string, Role>>): Role {
  const roles = groups.filter((g) => Object.hasOwn(mapping, g)).map((g) => mapping[g]);
  return STRENGTH.find((role) => roles.includes(role)) ?? 'CLIENT';
}

export type SignInOutcome = 'found' | 'linked' | 'created';

/** What the provider says now, for the fields it gives (an empty claim changes nothing). */
function freshFields(person: ProviderPerson): Partial<UserDoc> {
  const fields: Partial<UserDoc> = {};
  if (person.lastName || person.firstName) {
    Object.assign(fields, { lastName: person.lastName, firstName: person.firstName, middleName: person.middleName });
    fields.fullName = joinName(fields as Pick<UserDoc, 'lastName' | 'firstName' | 'middleName'>);
  }
  if (person.department) fields.department = person.department;
  if (person.position) fields.position = person.position;
  return fields;
}

/** The fields of `fresh` that differ from the stored person. */
function changesOf(user: UserDoc, fresh: Partial<UserDoc>): Partial<UserDoc> {
  const changed: Partial<UserDoc> = {};
  for (const [key, value] of Object.entries(fresh) as Array<[keyof UserDoc, unknown]>)
    if ((user[key] ?? '') !== value) Object.assign(changed, { [key]: value });
  return changed;
}

/**
 * Finds, links or creates the person of a verified sign-in, and brings their name, department and
 * position up to date with the provider. The role is the groups' only for a person made here.
 */
export async function signInPerson(
  users: Model<UserDoc>,
  person: ProviderPerson,
  mapping: Readonly<Record<string, Role>>,
): Promise<{ user: UserDoc; outcome: SignInOutcome; changed: boolean }> {
  if (!person.subject) throw new SignInRefused('rejected', 'the ID token names no subject');
  const identity = { issuer: person.issuer, subject: person.subject };
  const fresh = freshFields(person);

  const update = async (user: UserDoc, outcome: SignInOutcome, link: boolean) => {
    const changes = changesOf(user, fresh);
    if (!link && !Object.keys(changes).length) return { user, outcome, changed: false };
    const updated = await users
      .findOneAndUpdate(
        { _id: user._id },
        {
          $set: changes,
          ...(Object.keys(changes).length ? { $inc: { version: 1 } } : {}),
          ...(link ? { $push: { identities: identity } } : {}),
        },
        { returnDocument: 'after' },
      )
      .lean<UserDoc>();
    if (!updated) throw new SignInRefused('rejected', 'the person was deleted during the sign-in');
    return { user: updated, outcome, changed: Object.keys(changes).length > 0 };
  };

  for (let attempt = 0; attempt < 2; attempt++) {
    const linked = await users.findOne({ identities: { $elemMatch: identity } }).lean<UserDoc>();
    if (linked) return update(linked, 'found', false);
    if (!person.email) throw new SignInRefused('email', 'the provider gave no (valid) email');
    const sameEmail = await users.findOne({ email: person.email }).lean<UserDoc>();
    if (sameEmail) {
      if (!person.emailVerified)
        throw new SignInRefused('unverified', `an account has the email, and the provider does not assert it verified`);
      return update(sameEmail, 'linked', true);
    }
    try {
      const created = await users.create({
        email: person.email,
        passwordHash: unusablePassword(),
        fullName: joinName(person) || person.email,
        lastName: person.lastName,
        firstName: person.firstName || (joinName(person) ? '' : person.email),
        middleName: person.middleName,
        department: person.department,
        position: person.position,
        role: roleOfGroups(person.groups, mapping),
        identities: [identity],
      });
      return { user: created.toObject() as UserDoc, outcome: 'created', changed: true };
    } catch (err) {
      // Two first sign-ins at once: the other one made the person; look again.
      if (!isDuplicateKey(err) || attempt > 0) throw err;
    }
  }
  throw new SignInRefused('rejected', 'the person could not be found or made');
}
