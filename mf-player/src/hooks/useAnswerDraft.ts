import type { AnswerValue } from '@portal/contracts';

/**
 * Answers of an unfinished attempt, kept in this tab's session storage: closing the player or
 * reloading the page resumes the attempt (the server keeps its clock) with the answers given so far.
 */
export interface AnswerDraft {
  answers: Record<string, AnswerValue>;
  timeSpent: Record<string, number>;
  /** When the learner last changed an answer (this browser's clock); drafts from before it have none. */
  updatedAt?: number;
}

const keyOf = (attemptId: string) => `portal:quiz-attempt:${attemptId}`;

export function readDraft(attemptId: string): AnswerDraft {
  try {
    const raw = sessionStorage.getItem(keyOf(attemptId));
    if (raw) return JSON.parse(raw) as AnswerDraft;
  } catch {
    /* unreadable or unavailable: start empty */
  }
  return { answers: {}, timeSpent: {} };
}

export function writeDraft(attemptId: string, draft: AnswerDraft): void {
  try {
    sessionStorage.setItem(keyOf(attemptId), JSON.stringify(draft));
  } catch {
    /* storage full or blocked: the attempt still works, only a reload would lose the answers */
  }
}

export function dropDraft(attemptId: string): void {
  try {
    sessionStorage.removeItem(keyOf(attemptId));
  } catch {
    /* nothing to do */
  }
}
