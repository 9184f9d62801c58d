/**
 * The quiz engine: one pure definition (no I/O) of every question type: its schema, the learner's
 * view (never an answer), the seeded shuffle of an attempt, grading with points and partial credit,
 * the answers in words, and the time-limit rules. Used by the content and progress services, the
 * player and (through the player's federated QuizPreview) the editor.
 */
export * from './types';
export * from './defaults';
export * from './shuffle';
export * from './view';
export * from './answers';
export * from './grading';
export * from './text';
export * from './time';
export * from './analysis';
