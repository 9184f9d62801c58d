import { CRM_ROLES, MSG, type Role } from '@portal/contracts';
import { forbidden, type Principal } from '@portal/service-kit';

/** Who may read and edit the user directory: staff and the manager, who manages users. */
export const DIRECTORY_ROLES: Role[] = [...CRM_ROLES];

/** Roles only an administrator hands out: ADMIN, and MANAGER (never by self-registration nor by a peer). */
const GRANTED_BY_ADMIN_ONLY: Role[] = ['ADMIN', 'MANAGER'];

// TODO(contracts): move next to MSG.curatorCannotGrantAdmin when packages/contracts is free to edit.
export const MANAGER_GRANTED_BY_ADMIN = 'Роль «Менеджер» назначает только администратор';

/**
 * Only an ADMIN hands out or takes away ADMIN, and only an ADMIN makes someone a MANAGER: others may
 * neither grant those roles nor edit an administrator's account (a curator or manager promoting a
 * peer to MANAGER would hand out the directory and the CRM without an administrator).
 */
export function authorizeUserEdit(actor: Principal, target: { role: Role }, nextRole: Role): void {
  if (actor.role === 'ADMIN') return;
  if (nextRole === 'ADMIN') throw forbidden(actor.role === 'CURATOR' ? MSG.curatorCannotGrantAdmin : MSG.forbidden);
  if (target.role === 'ADMIN') throw forbidden();
  if (GRANTED_BY_ADMIN_ONLY.includes(nextRole) && nextRole !== target.role) throw forbidden(MANAGER_GRANTED_BY_ADMIN);
}
