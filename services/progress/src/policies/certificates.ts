import { ROLES, STUDY_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/** A learner asks for the certificate of a course they completed and lists their own. */
export const ownCertificates = definePolicy('ownCertificates', STUDY_ROLES);

/**
 * Anyone signed in may ask for a certificate's PDF; only its holder, the course's authors and ADMIN
 * get it (`readsAnswersOf`, after the load), anyone else is told it does not exist.
 */
export const readCertificates = definePolicy('readCertificates', ROLES);
