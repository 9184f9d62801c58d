import { RESULTS_ALL_ROLES, ROLES, STUDY_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/** Who plays a SCO and commits to their own attempt: those who study (a lesson's own rule follows its load). */
export const studyScorm = definePolicy('studyScorm', STUDY_ROLES);

/**
 * Who reads SCORM attempts: anyone signed in, by the results' rule (`resultsScope`): a learner their
 * own, ADMIN everyone's, a CURATOR those of the courses they own or co-author.
 */
export const readScormAttempts = definePolicy('readScormAttempts', ROLES);

/** Who reads a lesson's item analysis: ADMIN, and a CURATOR of the course (checked against the course after the load). */
export const analyzeScorm = definePolicy('analyzeScorm', RESULTS_ALL_ROLES);
