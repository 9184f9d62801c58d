import { CANDIDATE_LINK_MSG, STAFF_ROLES, canEditCourse, type CourseSummary } from '@portal/contracts';
import { definePolicy, forbidden, type Principal } from '@portal/service-kit';

/**
 * Who makes, lists and revokes links for candidates: ADMIN, and a CURATOR for the courses they may
 * change (checked against the course by the command) and the links they made.
 */
export const manageCandidateLinks = definePolicy('manageCandidateLinks', STAFF_ROLES);

/** A link leads into a course its maker may change: content's authoring rule, on the curator's principal (403). */
export function authorizeLinkToCourse(
  actor: Principal,
  course: Pick<CourseSummary, 'ownerId' | 'coAuthorIds' | 'archived'>,
): void {
  if (!canEditCourse(actor, course)) throw forbidden(CANDIDATE_LINK_MSG.notYours);
}
