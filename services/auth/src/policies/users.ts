import { CRM_ROLES, MSG, userEditRights, type Role } from '@portal/contracts';
import { forbidden, type Principal } from '@portal/service-kit';

/** Who may read and edit the user directory: staff and the manager, who manages users. */
export const DIRECTORY_ROLES: Role[] = [...CRM_ROLES];

/** Role applications are decided by an administrator only. */
export const APPLICATION_ROLES: Role[] = ['ADMIN'];

type Target = { _id: unknown; role: Role; fullName: string; email: string; department?: string; position?: string };

/**
 * The rights of contracts' userEditRights, enforced on what actually changes: an ADMIN changes
 * anything; a CURATOR or MANAGER renames learners, and edits their own name and email but not their
 * role; a peer's or a higher role's account is refused whatever the body says.
 */
export function authorizeUserEdit(
  actor: Principal,
  target: Target,
  changes: { fullName: string; email: string; role: Role; department?: string; position?: string },
): void {
  const rights = userEditRights(actor, { id: String(target._id), role: target.role });
  if (!rights.fullName && !rights.email && !rights.role) throw forbidden(MSG.userEditPeer);
  if (changes.role !== target.role && !rights.role) {
    if (changes.role === 'ADMIN' && actor.role === 'CURATOR') throw forbidden(MSG.curatorCannotGrantAdmin);
    throw forbidden(actor.id === String(target._id) ? MSG.ownRoleAdminOnly : MSG.userEmailRoleAdminOnly);
  }
  if (changes.email !== target.email && !rights.email) throw forbidden(MSG.userEmailRoleAdminOnly);
  if (changes.fullName !== target.fullName && !rights.fullName) throw forbidden(MSG.userEditPeer);
  const moved =
    (changes.department !== undefined && changes.department !== (target.department ?? '')) ||
    (changes.position !== undefined && changes.position !== (target.position ?? ''));
  if (moved && !rights.department) throw forbidden(MSG.userDepartmentAdminOnly);
}
