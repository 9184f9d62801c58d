import { STUDY_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/** A learner's own lesson completions and course progress: nobody reaches anyone else's through these routes. */
export const ownProgress = definePolicy('ownProgress', STUDY_ROLES);
