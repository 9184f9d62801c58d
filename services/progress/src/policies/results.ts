import { RESULTS_ALL_ROLES, ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/**
 * Who grades the answers waiting for a person: ADMIN, and a CURATOR for the courses they own or
 * co-author (`readsAnswersOf`, checked against the attempt's course after it is loaded).
 */
export const gradeAnswers = definePolicy('gradeAnswers', RESULTS_ALL_ROLES);

/** Who reads a quiz's item analysis: ADMIN, and a CURATOR of the quiz's course (checked by the command after the load). */
export const analyzeQuizzes = definePolicy('analyzeQuizzes', RESULTS_ALL_ROLES);

/**
 * Who reads quiz results and exports them: anyone signed in, by `resultsScope`: a learner their own
 * (asking for someone else is 403), ADMIN everyone's, a CURATOR those of the courses they own or co-author.
 */
export const readResults = definePolicy('readResults', ROLES);
