import { PROGRAM_MSG, type Role } from '@portal/contracts';
import { definePolicy, forbidden, type Principal } from '@portal/service-kit';
import type { ProgramAssignmentDoc, ProgramDoc } from '../models/program';

/** Who builds programs and assigns them: curators and administrators. */
const AUTHOR_ROLES: readonly Role[] = ['ADMIN', 'CURATOR'];
/** Who reads every program, its assignments and its reports: they, and the manager. */
const READ_ROLES: readonly Role[] = ['ADMIN', 'CURATOR', 'MANAGER'];
/** Who is assigned programs and follows their own. */
const LEARNER_ROLES: readonly Role[] = ['CLIENT', 'CANDIDATE', 'MANAGER'];

/** Builds, copies, archives programs; a CURATOR changes only their own and those they co-author (`canEditProgram`). */
export const programAuthors = definePolicy('programAuthors', AUTHOR_ROLES);
/** Reads programs, their assignments and reports. */
export const programReaders = definePolicy('programReaders', READ_ROLES);
/** Assigns programs; a CURATOR deletes or extends only the assignments they made (`authorizeProgramAssignmentEdit`). */
export const programAssigners = definePolicy('programAssigners', AUTHOR_ROLES);
/** A learner's own programs: nobody reaches anyone else's through these routes. */
export const ownPrograms = definePolicy('ownPrograms', LEARNER_ROLES);

/** An ADMIN changes any program; a CURATOR the ones they own or co-author. */
export const canEditProgram = (actor: Principal, doc: Pick<ProgramDoc, 'owner' | 'coAuthorIds'>): boolean =>
  actor.role === 'ADMIN' || (actor.role === 'CURATOR' && (doc.owner.id === actor.id || doc.coAuthorIds.includes(actor.id)));

/** An ADMIN changes any program assignment; a CURATOR the ones they made. */
export function authorizeProgramAssignmentEdit(actor: Principal, doc: ProgramAssignmentDoc): void {
  if (actor.role === 'ADMIN') return;
  if (actor.role === 'CURATOR' && doc.createdBy.id === actor.id) return;
  throw forbidden(PROGRAM_MSG.assignmentNotYours);
}
