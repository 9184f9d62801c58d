import { ADMIN_ROLES, CRM_ROLES, MSG, ROLES, STAFF_ROLES, userEditRights, type Role } from '@portal/contracts';
import { definePolicy, forbidden, type Principal } from '@portal/service-kit';

/** A person's own session, password and consent: every role, refused to none. */
export const ownAccount = definePolicy('ownAccount', ROLES);

/** Who may read and edit the user directory: staff and the manager, who manages users. */
export const manageUsers = definePolicy('manageUsers', CRM_ROLES);

/** Removing a person or handing them a password link: the administrator's alone. */
export const administerUsers = definePolicy('administerUsers', ['ADMIN']);

/** Role applications are decided by an administrator only. */
export const decideApplications = definePolicy('decideApplications', ['ADMIN']);

/** Data-subject requests (152-FZ): filed, listed and their acts read by an administrator only. */
export const handleSubjectRequests = definePolicy('handleSubjectRequests', ADMIN_ROLES);

/** The staff import: staff only, and a curator grants no role above their own (checked per row). */
export const importStaff = definePolicy('importStaff', STAFF_ROLES);

type Target = { _id: unknown; role: Role; fullName: string; email: string; department?: string; position?: string };

type Changes = { fullName: string; email: string; role: Role; department?: string; position?: string };

/**
 * The rights of contracts' userEditRights, applied to what actually changes: every reason the change
 * is refused, field by field, or none. An ADMIN changes anything; a CURATOR or MANAGER renames
 * learners, and edits their own name and email but not their role; a peer's or a higher role's
 * account is refused whatever the change is. The staff import shows all of them on a row.
 */
export function userEditRefusals(actor: Pick<Principal, 'id' | 'role'>, target: Target, changes: Changes): string[] {
  const rights = userEditRights(actor, { id: String(target._id), role: target.role });
  if (!rights.fullName && !rights.email && !rights.role) return [MSG.userEditPeer];
  const refusals: string[] = [];
  if (changes.role !== target.role && !rights.role) {
    if (changes.role === 'ADMIN' && actor.role === 'CURATOR') refusals.push(MSG.curatorCannotGrantAdmin);
    else refusals.push(actor.id === String(target._id) ? MSG.ownRoleAdminOnly : MSG.userEmailRoleAdminOnly);
  }
  if (changes.email !== target.email && !rights.email) refusals.push(MSG.userEmailRoleAdminOnly);
  if (changes.fullName !== target.fullName && !rights.fullName) refusals.push(MSG.userEditPeer);
  const moved =
    (changes.department !== undefined && changes.department !== (target.department ?? '')) ||
    (changes.position !== undefined && changes.position !== (target.position ?? ''));
  if (moved && !rights.department) refusals.push(MSG.userDepartmentAdminOnly);
  return [...new Set(refusals)];
}

/** PATCH /api/users/{id}: the first refusal of userEditRefusals is a 403. */
export function authorizeUserEdit(actor: Principal, target: Target, changes: Changes): void {
  const [refusal] = userEditRefusals(actor, target, changes);
  if (refusal) throw forbidden(refusal);
}

/** The directory sync (LDAP / AD): its configuration, runs and people's outcomes, the administrator's alone. */
export const syncDirectory = definePolicy('syncDirectory', ADMIN_ROLES);
