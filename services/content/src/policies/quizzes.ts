import { ROLES, STAFF_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/**
 * Writing and listing quizzes is for the authoring roles; of those, a CURATOR changes only a quiz of
 * no course that they made or one of a course they own or co-author (the quiz's rule, after its load).
 */
export const quizAuthoring = definePolicy('quizAuthoring', STAFF_ROLES);

/**
 * Reading one quiz: everyone signed in. Its authors get its answer keys; anyone else reads it as a
 * learner does, only when it is the quiz of a lesson they see (404 otherwise, after the load).
 */
export const quizReaders = definePolicy('quizReaders', ROLES);

/**
 * A course's question bank: the authoring roles reach it; of those, the course's authors read it and
 * those who may change the course write it (the course's rule, after its load: 403 otherwise).
 */
export const bankAuthoring = definePolicy('bankAuthoring', STAFF_ROLES);
