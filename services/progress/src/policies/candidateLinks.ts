import { STAFF_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/**
 * Who makes, lists and revokes links for candidates: ADMIN, and a CURATOR for the courses they may
 * change (checked against the course by the command) and the links they made.
 */
export const manageCandidateLinks = definePolicy('manageCandidateLinks', STAFF_ROLES);
