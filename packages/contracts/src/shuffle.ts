/** How a quiz is shuffled for a learner: the quiz engine's one seeded shuffle. */
export { seededOrder } from '@portal/quiz-engine';
