import {
  NEW_QUIZ_DEFAULTS,
  QUIZ_MSG,
  countBlanks,
  newQuestion,
  questionSchema,
  quizProblem,
  quizSettingsSchema,
  quizDrawsSchema,
  type Question,
  type QuestionType,
  type Quiz,
  type QuizCreateInput,
  type QuizSettings,
  type ScoringMode,
  type ShowCorrectAnswers,
  type ShowExplanations,
  DEFAULT_SCORING,
  DEFAULT_SHOW_CORRECT_ANSWERS,
} from '@portal/contracts';
import { newId } from '../../model/ids';

/** The settings as typed: numbers stay text until saved, so a field can be empty. */
export interface SettingsForm {
  randomizeQuestions: boolean;
  randomizeAnswers: boolean;
  passingScore: string;
  maxAttempts: string;
  showExplanations: ShowExplanations;
  showCorrectAnswers: ShowCorrectAnswers;
  scoring: ScoringMode;
  timeLimit: string;
}

export interface QuizDraft {
  title: string;
  description: string;
  questions: Question[];
  settings: SettingsForm;
  /** Questions drawn from the course's bank per attempt (tag, count as typed). */
  draws: DrawForm[];
}

export interface DrawForm {
  tag: string;
  count: string;
}

const settingsForm = (s: QuizSettings | typeof NEW_QUIZ_DEFAULTS.settings): SettingsForm => ({
  randomizeQuestions: s.randomizeQuestions,
  randomizeAnswers: s.randomizeAnswers,
  passingScore: String(s.passingScore),
  maxAttempts: String(s.maxAttempts),
  showExplanations: s.showExplanations,
  showCorrectAnswers: s.showCorrectAnswers ?? DEFAULT_SHOW_CORRECT_ANSWERS,
  scoring: s.scoring ?? DEFAULT_SCORING,
  timeLimit: s.timeLimit === null || s.timeLimit === undefined ? '' : String(s.timeLimit),
});

/** A quiz to edit: the stored one, or the spec's new quiz ('Новый квиз', 70 %, 3 attempts...). */
export const draftOf = (quiz: Quiz | null): QuizDraft =>
  quiz
    ? {
        title: quiz.title,
        description: quiz.description ?? '',
        questions: structuredClone(quiz.questions),
        settings: settingsForm(quiz.settings),
        draws: (quiz.draws ?? []).map((d) => ({ tag: d.tag, count: String(d.count) })),
      }
    : {
        title: NEW_QUIZ_DEFAULTS.title,
        description: '',
        questions: [],
        settings: settingsForm(NEW_QUIZ_DEFAULTS.settings),
        draws: [],
      };

export const addQuestion = (questions: Question[], type: QuestionType): Question[] => [
  ...questions,
  newQuestion(type, newId(), questions.length + 1),
];

export const duplicateQuestion = (questions: Question[], index: number): Question[] => {
  const copy = { ...structuredClone(questions[index]), id: newId() };
  return renumberQuestions([...questions.slice(0, index + 1), copy, ...questions.slice(index + 1)]);
};

export const moveItem = <T>(list: readonly T[], index: number, step: -1 | 1): T[] => {
  const to = index + step;
  if (index < 0 || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
};

export const renumberQuestions = (questions: Question[]): Question[] => questions.map((q, i) => ({ ...q, order: i + 1 }));

/** Removing option i: the correct answers keep pointing at the same texts. */
export function removeOption(q: Question, index: number): Question {
  return {
    ...q,
    options: q.options.filter((_, i) => i !== index),
    correctAnswers: q.correctAnswers.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i)),
  };
}

/** Moving option i one step: the correct answers move with it. */
export function shiftOption(q: Question, index: number, step: -1 | 1): Question {
  const to = index + step;
  if (to < 0 || to >= q.options.length) return q;
  const swap = (i: number) => (i === index ? to : i === to ? index : i);
  return { ...q, options: moveItem(q.options, index, step), correctAnswers: q.correctAnswers.map(swap) };
}

/** single_choice has one correct answer; multiple_choice toggles. */
export function markCorrect(q: Question, index: number, checked: boolean): Question {
  if (q.type === 'single_choice') return { ...q, correctAnswers: [index] };
  const set = new Set(q.correctAnswers);
  if (checked) set.add(index);
  else set.delete(index);
  return { ...q, correctAnswers: [...set].sort((a, b) => a - b) };
}

/** fill_blanks: the text decides how many answers there are; typed answers are kept. */
export function setBlankText(q: Question, text: string): Question {
  const count = countBlanks(text);
  const blanks = Array.from({ length: count }, (_, i) => q.blanks?.[i] ?? '');
  return { ...q, question: text, blanks };
}

export type DraftCheck = { ok: true; input: QuizCreateInput } | { ok: false; message: string; path: string };

/**
 * The payload to save, or the first problem with it, checked by the same rules the server applies
 * (so a problem is named before the round trip): title, settings ranges, each question answerable.
 */
export function checkDraft(draft: QuizDraft, courseId: string | null): DraftCheck {
  if (!draft.title.trim()) return { ok: false, message: QUIZ_MSG.titleRequired, path: 'title' };
  const settings = quizSettingsSchema.safeParse({
    ...draft.settings,
    passingScore: draft.settings.passingScore.trim(),
    maxAttempts: draft.settings.maxAttempts.trim(),
    timeLimit: draft.settings.timeLimit.trim(),
  });
  if (!settings.success) {
    const issue = settings.error.issues[0];
    return { ok: false, message: issue.message, path: `settings.${issue.path.join('.')}` };
  }
  const questions = renumberQuestions(draft.questions);
  for (const [i, q] of questions.entries()) {
    const parsed = questionSchema.safeParse(q);
    if (!parsed.success)
      return {
        ok: false,
        message: parsed.error.issues[0].message,
        path: `questions.${i}.${parsed.error.issues[0].path.join('.')}`,
      };
  }
  const problem = quizProblem(questions);
  if (problem) return { ok: false, message: problem.message, path: problem.path };
  const draws = quizDrawsSchema.safeParse(draft.draws.map((d) => ({ tag: d.tag, count: d.count.trim() })));
  if (!draws.success) {
    const issue = draws.error.issues[0];
    return { ok: false, message: issue.message, path: `settings.draws.${issue.path.join('.')}` };
  }
  return {
    ok: true,
    input: {
      title: draft.title.trim(),
      description: draft.description.trim(),
      ...(courseId ? { courseId } : {}),
      questions,
      settings: settings.data,
      draws: draws.data,
    },
  };
}

/** 'questions.2.options' → 2, for pointing at the question with a problem. */
export const questionIndexOf = (path: string): number | null => {
  const match = /^questions\.(\d+)/.exec(path);
  return match ? Number(match[1]) : null;
};
