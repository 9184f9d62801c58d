import type { Question, QuestionType } from './types';

/**
 * Item analysis of a quiz (docs/decisions/036): how the learners' finished attempts went, per
 * question, with the classical test indexes and plain-Russian flags. Pure: the progress service
 * reads a bounded sample of attempts and passes them in.
 */

/** One finished attempt as analysed: the questions it showed (its own draw) and what each earned. */
export interface AnalysedAttempt {
  percentage: number;
  questions: Array<
    Pick<Question, 'id' | 'type' | 'question' | 'options' | 'correctAnswers' | 'correctAnswer' | 'points' | 'order'>
  >;
  answers: Array<{ questionId: string; answer: unknown; earned: number; timeSpent: number }>;
}

export const ITEM_FLAGS = ['too_easy', 'too_hard', 'not_discriminating', 'distractor_beats_key'] as const;
export type ItemFlag = (typeof ITEM_FLAGS)[number];

/** What each flag says, and one plain line on what it means. */
export const ITEM_FLAG_TEXT: Record<ItemFlag, { label: string; explanation: string }> = {
  too_easy: {
    label: 'слишком лёгкий',
    explanation: 'Почти все отвечают верно: вопрос ничего не проверяет.',
  },
  too_hard: {
    label: 'слишком трудный',
    explanation: 'Почти никто не отвечает верно: проверьте формулировку, ответ и то, есть ли это в уроке.',
  },
  not_discriminating: {
    label: 'не различает сильных и слабых',
    explanation: 'Те, кто хорошо сдал тест в целом, отвечают на этот вопрос не лучше остальных.',
  },
  distractor_beats_key: {
    label: 'неверный вариант выбирают чаще верного',
    explanation: 'Один из неверных вариантов популярнее правильного: возможно, ошибка в ключе или вопрос вводит в заблуждение.',
  },
};

/** Thresholds (facility in % of points, discrimination as a correlation); flags need a few attempts. */
export const ITEM_THRESHOLDS = { tooEasy: 90, tooHard: 20, discrimination: 0.2, minAttempts: 5 } as const;

export interface OptionChoice {
  label: string;
  count: number;
  correct: boolean;
}

export interface ItemStats {
  questionId: string;
  question: string;
  type: QuestionType;
  /** Attempts of the sample that showed this question. */
  attempts: number;
  /** Share of the question's points earned, in % (one decimal); null for ungraded questions. */
  facility: number | null;
  /** Correlation of the item's score with the rest of the test (two decimals); null when either never varies. */
  discrimination: number | null;
  /** How often each option was chosen (choice and true/false questions); empty for others. */
  options: OptionChoice[];
  /** Seconds (the median of the answers' time); null when no time was recorded. */
  medianTime: number | null;
  flags: ItemFlag[];
}

export interface HistogramBar {
  /** Percentages from..to, both included (the last bar is 90–100). */
  from: number;
  to: number;
  count: number;
}

export interface QuizAnalysis {
  sampleSize: number;
  histogram: HistogramBar[];
  items: ItemStats[];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Pearson's correlation; null when either series has no spread. */
export function correlation(xs: number[], ys: number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

export function histogramOf(percentages: number[]): HistogramBar[] {
  const bars = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, count: 0 }));
  for (const p of percentages) bars[Math.min(9, Math.max(0, Math.floor(p / 10)))].count++;
  return bars;
}

type Shown = AnalysedAttempt['questions'][number];

/** The options a learner could pick, with the value an answer holds for each. */
function choicesOf(q: Shown): Array<{ label: string; value: number | string; correct: boolean }> {
  if (q.type === 'single_choice' || q.type === 'multiple_choice')
    return q.options.map((label, i) => ({ label, value: i, correct: q.correctAnswers.includes(i) }));
  if (q.type === 'true_false')
    return [
      { label: 'Верно', value: 'true', correct: q.correctAnswer === 'true' },
      { label: 'Неверно', value: 'false', correct: q.correctAnswer === 'false' },
    ];
  return [];
}

const chosenValues = (answer: unknown): Array<number | string> =>
  Array.isArray(answer)
    ? [...new Set(answer as Array<number | string>)]
    : answer === null || answer === undefined
      ? []
      : [answer as number | string];

/** Facility, discrimination, choices, time and flags of every question the attempts showed. */
export function analyseQuiz(attempts: AnalysedAttempt[]): QuizAnalysis {
  const shown = new Map<string, { q: Shown; rows: Array<{ item: number; rest: number; answer: unknown; time: number }> }>();
  for (const attempt of attempts) {
    const earned = new Map(attempt.answers.map((a) => [a.questionId, a]));
    const total = attempt.answers.reduce((s, a) => s + a.earned, 0);
    for (const q of attempt.questions) {
      const a = earned.get(q.id);
      const entry = shown.get(q.id) ?? { q, rows: [] };
      const item = a?.earned ?? 0;
      entry.rows.push({ item, rest: total - item, answer: a?.answer ?? null, time: a?.timeSpent ?? 0 });
      shown.set(q.id, entry);
    }
  }
  const items = [...shown.values()]
    .sort((a, b) => (a.q.order ?? 0) - (b.q.order ?? 0))
    .map(({ q, rows }): ItemStats => {
      const points = q.points ?? 1;
      const graded = points > 0 && q.type !== 'scale';
      const facility = graded ? round((rows.reduce((s, r) => s + r.item, 0) / (points * rows.length)) * 100, 1) : null;
      const r = graded
        ? correlation(
            rows.map((x) => x.item / points),
            rows.map((x) => x.rest),
          )
        : null;
      const discrimination = r === null ? null : round(r, 2);
      const options = choicesOf(q).map((c) => ({
        label: c.label,
        correct: c.correct,
        count: rows.filter((x) => chosenValues(x.answer).includes(c.value)).length,
      }));
      const flags: ItemFlag[] = [];
      if (graded && rows.length >= ITEM_THRESHOLDS.minAttempts && facility !== null) {
        if (facility >= ITEM_THRESHOLDS.tooEasy) flags.push('too_easy');
        if (facility <= ITEM_THRESHOLDS.tooHard) flags.push('too_hard');
        if (discrimination !== null && discrimination < ITEM_THRESHOLDS.discrimination) flags.push('not_discriminating');
        const right = options.filter((o) => o.correct).map((o) => o.count);
        const wrong = options.filter((o) => !o.correct).map((o) => o.count);
        if (right.length && wrong.length && Math.max(...wrong) > Math.min(...right)) flags.push('distractor_beats_key');
      }
      return {
        questionId: q.id,
        question: q.question,
        type: q.type,
        attempts: rows.length,
        facility,
        discrimination,
        options,
        medianTime: median(rows.map((x) => x.time).filter((t) => t > 0)),
        flags,
      };
    });
  return { sampleSize: attempts.length, histogram: histogramOf(attempts.map((a) => a.percentage)), items };
}
