import { ASSIGNMENT_MSG, STUDY_ROLES, type Role } from '@portal/contracts';
import { definePolicy, forbidden, type Principal } from '@portal/service-kit';
import type { AssignmentDoc } from '../models/assignment';

/** Who assigns training: curators and administrators. */
const ASSIGN_ROLES: readonly Role[] = ['ADMIN', 'CURATOR'];
/** Who reads every assignment and everyone's status in it: they, and the manager (reports). */
const ASSIGNMENT_READ_ROLES: readonly Role[] = ['ADMIN', 'CURATOR', 'MANAGER'];

/** Assigns courses; a CURATOR changes, extends or deletes only the assignments they made (`authorizeAssignmentEdit`). */
export const assignmentAssigners = definePolicy('assignmentAssigners', ASSIGN_ROLES);
/** Reads every assignment, the people it reaches and its reports. */
export const assignmentReaders = definePolicy('assignmentReaders', ASSIGNMENT_READ_ROLES);
/** A learner's own assignments: nobody reaches anyone else's through this route. */
export const ownAssignments = definePolicy('ownAssignments', STUDY_ROLES);

/** An ADMIN changes any assignment; a CURATOR the ones they made. */
export function authorizeAssignmentEdit(actor: Principal, doc: AssignmentDoc): void {
  if (actor.role === 'ADMIN') return;
  if (actor.role === 'CURATOR' && doc.createdBy.id === actor.id) return;
  throw forbidden(ASSIGNMENT_MSG.notYours);
}
