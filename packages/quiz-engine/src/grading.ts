import { isBlank } from './answers';
import {
  DEFAULT_SCORING,
  MANUALLY_GRADED_TYPES,
  parseNumber,
  type AnswerValue,
  type Area,
  type Question,
  type ScoringMode,
} from './types';

/** How one answer scored. */
export interface QuestionGrade {
  /** Points earned (0 while a person has not graded it). */
  earned: number;
  /** Points the question is worth; 0 for a survey question (scale), which is never graded. */
  max: number;
  /** Wholly right (all-or-nothing sense), whatever the scoring mode. */
  correct: boolean;
  /** Waits for a person: long_answer and file_upload. */
  manual: boolean;
}

const norm = (s: string) => s.trim().toLocaleLowerCase('ru-RU');
const round2 = (n: number) => Math.round(n * 100) / 100;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Ray casting; points on an edge count as inside. */
function inPolygon(x: number, y: number, points: Array<{ x: number; y: number }>): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[i];
    const b = points[j];
    const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    const onEdge =
      Math.abs(cross) < 1e-9 &&
      x >= Math.min(a.x, b.x) &&
      x <= Math.max(a.x, b.x) &&
      y >= Math.min(a.y, b.y) &&
      y <= Math.max(a.y, b.y);
    if (onEdge) return true;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Whether a point (in % of the image) falls in a hotspot's area. */
export function inArea(x: number, y: number, area: Area): boolean {
  if (area.shape === 'rect') return x >= area.x && x <= area.x + area.width && y >= area.y && y <= area.y + area.height;
  return inPolygon(x, y, area.points);
}

/**
 * The share (0..1) of a question's parts the answer got right, for the types with parts; for the
 * others 1 or 0. The answer is in the quiz's own terms (see toQuizTerms).
 */
function share(q: Question, answer: AnswerValue): number {
  switch (q.type) {
    case 'single_choice':
      return typeof answer === 'number' && q.correctAnswers.length > 0 && answer === q.correctAnswers[0] ? 1 : 0;
    case 'multiple_choice': {
      // Right choices minus wrong ones, over the right ones; never below 0. A duplicate is one choice.
      if (!Array.isArray(answer) || !answer.every((v) => typeof v === 'number') || !q.correctAnswers.length) return 0;
      const chosen = new Set(answer as number[]);
      const right = new Set(q.correctAnswers);
      const hits = [...chosen].filter((v) => right.has(v)).length;
      return Math.max(0, (hits - (chosen.size - hits)) / right.size);
    }
    case 'true_false':
      return String(answer) === q.correctAnswer ? 1 : 0;
    case 'short_answer':
      return typeof answer === 'string' && q.correctAnswer !== undefined && norm(answer) === norm(q.correctAnswer) ? 1 : 0;
    case 'numeric': {
      const given = parseNumber(answer);
      const expected = parseNumber(q.correctAnswer);
      return Number.isFinite(given) && Number.isFinite(expected) && Math.abs(given - expected) <= (q.tolerance ?? 0) + 1e-9
        ? 1
        : 0;
    }
    case 'ordering': {
      // The items standing where they belong, over all items; a list of another length is wrong.
      if (!Array.isArray(answer) || answer.length !== q.options.length || !q.options.length) return 0;
      return (answer as unknown[]).filter((v, i) => v === i).length / q.options.length;
    }
    case 'matching': {
      const pairs = q.pairs ?? [];
      if (!isRecord(answer) || !pairs.length) return 0;
      return pairs.filter((_, i) => answer[String(i)] === i).length / pairs.length;
    }
    case 'fill_blanks': {
      const blanks = q.blanks ?? [];
      if (!Array.isArray(answer) || !blanks.length) return 0;
      const right = blanks.filter((b, i) => typeof answer[i] === 'string' && norm(answer[i] as string) === norm(b)).length;
      // Extra blanks sent are wrong parts too: a list of another length is never wholly right.
      return right / Math.max(blanks.length, answer.length);
    }
    case 'matrix': {
      const rows = q.rows ?? [];
      if (!isRecord(answer) || !rows.length) return 0;
      return rows.filter((_, i) => answer[String(i)] === q.correctAnswers[i]).length / rows.length;
    }
    case 'image_labels': {
      // A label belongs at a point when its text is the point's label (two points may share one).
      const markers = q.markers ?? [];
      if (!isRecord(answer) || !markers.length) return 0;
      const right = markers.filter((m, i) => {
        const chosen = answer[String(i)];
        return typeof chosen === 'number' && markers[chosen] !== undefined && norm(markers[chosen].label) === norm(m.label);
      }).length;
      return right / markers.length;
    }
    case 'hotspot': {
      if (!isRecord(answer) || typeof answer.x !== 'number' || typeof answer.y !== 'number') return 0;
      const { x, y } = answer as { x: number; y: number };
      return (q.areas ?? []).some((area) => inArea(x, y, area)) ? 1 : 0;
    }
    default:
      return 0; // scale, long_answer and file_upload are never graded here
  }
}

/**
 * Grades one answer (in the quiz's own terms). all_or_nothing: the question's points only when
 * wholly right (the spec's rules, section 5). proportional: the points times the share of parts
 * right, for multiple choice (right minus wrong choices), ordering (items in place), matching
 * (pairs), fill-in-the-blanks (blanks), matrix (rows) and image labels (points); the other types
 * stay all-or-nothing. A blank answer earns nothing; scale is worth 0; long_answer and file_upload
 * wait for a person.
 */
export function gradeQuestion(
  q: Question,
  answer: AnswerValue | undefined,
  scoring: ScoringMode = DEFAULT_SCORING,
): QuestionGrade {
  const points = q.points ?? 1;
  if (q.type === 'scale') return { earned: 0, max: 0, correct: false, manual: false };
  const blank = answer === undefined || isBlank(answer);
  if (MANUALLY_GRADED_TYPES.includes(q.type)) return { earned: 0, max: points, correct: false, manual: !blank };
  if (blank) return { earned: 0, max: points, correct: false, manual: false };
  const part = share(q, answer as AnswerValue);
  const correct = part >= 1 - 1e-9;
  const earned = correct ? points : scoring === 'proportional' ? round2(points * part) : 0;
  return { earned, max: points, correct, manual: false };
}

/** The spec's rule (section 5): wholly right. Survey and hand-graded questions never are. */
export const isAnswerCorrect = (q: Question, answer: AnswerValue): boolean => gradeQuestion(q, answer).correct;

/** Score = points earned, percentage = rounded share, passed when ≥ passing score. */
export function scoreAttempt(score: number, maxScore: number, passingScore: number) {
  const percentage = maxScore === 0 ? 0 : Math.round((score / maxScore) * 100);
  return {
    score: round2(score),
    maxScore,
    percentage,
    status: percentage >= passingScore ? ('passed' as const) : ('failed' as const),
  };
}

/** The points a quiz is worth: each question's points, surveys none. */
export const maxScoreOf = (questions: Question[]): number => questions.reduce((sum, q) => sum + gradeQuestion(q, null).max, 0);

/** Grades a whole set of answers (quiz terms, by question id) and scores it. */
export function gradeQuiz(
  questions: Question[],
  answers: Record<string, AnswerValue | undefined>,
  { passingScore, scoring = DEFAULT_SCORING }: { passingScore: number; scoring?: ScoringMode },
) {
  const grades = questions.map((q) => ({ questionId: q.id, ...gradeQuestion(q, answers[q.id], scoring) }));
  const earned = grades.reduce((sum, g) => sum + g.earned, 0);
  const max = maxScoreOf(questions);
  return { grades, pendingManual: grades.filter((g) => g.manual).length, ...scoreAttempt(earned, max, passingScore) };
}
