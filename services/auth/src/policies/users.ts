import { CRM_ROLES, MSG, type Role } from '@portal/contracts';
import { forbidden, type Principal } from '@portal/service-kit';

/** Who may read and edit the user directory: staff and the manager, who manages users. */
export const DIRECTORY_ROLES: Role[] = [...CRM_ROLES];

/**
 * Only an ADMIN hands out or takes away ADMIN: others may neither grant the role nor edit an
 * administrator's account. MANAGER is given only by an edit (never by self-registration).
 */
export function authorizeUserEdit(actor: Principal, target: { role: Role }, nextRole: Role): void {
  if (actor.role === 'ADMIN') return;
  if (nextRole === 'ADMIN') throw forbidden(actor.role === 'CURATOR' ? MSG.curatorCannotGrantAdmin : MSG.forbidden);
  if (target.role === 'ADMIN') throw forbidden();
}
