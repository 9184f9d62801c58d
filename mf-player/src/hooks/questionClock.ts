/** Seconds a learner spends on each question of an attempt, counted while the question is shown. */
export interface QuestionClock {
  /** Seconds so far, by question id. */
  readonly spent: Record<string, number>;
  /** Starts counting afresh from these totals (a resumed attempt's draft, or none). */
  restart(spent: Record<string, number>): void;
  /** Adds the time since the last lap (or restart) to this question's total. */
  lap(questionId: string): void;
}

export function questionClock(now: () => number = () => performance.now()): QuestionClock {
  let spent: Record<string, number> = {};
  let shownAt = now();
  return {
    get spent() {
      return spent;
    },
    restart(from) {
      spent = from;
      shownAt = now();
    },
    lap(questionId) {
      const at = now();
      spent = { ...spent, [questionId]: (spent[questionId] ?? 0) + (at - shownAt) / 1000 };
      shownAt = at;
    },
  };
}
