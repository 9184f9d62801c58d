import { ASSIGNMENT_MSG, type Role } from '@portal/contracts';
import { forbidden, type Principal } from '@portal/service-kit';
import type { AssignmentDoc } from '../models/assignment';

/** Who assigns training: curators and administrators. */
export const ASSIGN_ROLES: Role[] = ['ADMIN', 'CURATOR'];
/** Who reads every assignment and everyone's status in it: they, and the manager (reports). */
export const ASSIGNMENT_READ_ROLES: Role[] = ['ADMIN', 'CURATOR', 'MANAGER'];

/** An ADMIN changes any assignment; a CURATOR the ones they made. */
export function authorizeAssignmentEdit(actor: Principal, doc: AssignmentDoc): void {
  if (actor.role === 'ADMIN') return;
  if (actor.role === 'CURATOR' && doc.createdBy.id === actor.id) return;
  throw forbidden(ASSIGNMENT_MSG.notYours);
}
