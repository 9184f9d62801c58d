import { z } from 'zod';
import './zod-ru';
import { questionSchema, type Question } from '@portal/quiz-engine';
import { pagingFields, type Page } from './paging';

/**
 * A course's question bank (docs/decisions/035): questions with tags, from which a quiz draws N at
 * random per tag; each attempt gets its own draw (from its seed), stored with the attempt.
 */
export const BANK_MSG = {
  title: 'Банк вопросов',
  notFound: 'Вопрос банка не найден',
  tagRequired: 'Укажите хотя бы одну метку',
  tagInvalid: 'Метка — от 1 до 50 символов',
  tooManyTags: 'Не больше 10 меток у вопроса',
  full: 'В банке курса уже {max} вопросов: удалите ненужные',
  drawCount: 'Из банка берётся от 1 до 50 вопросов по метке',
  tooManyDraws: 'Не больше 10 меток для выборки',
  drawTagTwice: 'Метка «{tag}» уже есть в выборке',
} as const;

/** A bank holds at most this many questions per course (the draw reads one tag's ids: bounded). */
export const MAX_BANK_QUESTIONS = 2000;

export const bankTagSchema = z
  .string({ error: BANK_MSG.tagInvalid })
  .trim()
  .min(1, BANK_MSG.tagInvalid)
  .max(50, BANK_MSG.tagInvalid);

/** The question's id is the bank's own (given by the server), so a draw never collides with a quiz's questions. */
export const bankQuestionInputSchema = z.object({
  tags: z
    .array(bankTagSchema, { error: BANK_MSG.tagRequired })
    .min(1, BANK_MSG.tagRequired)
    .max(10, BANK_MSG.tooManyTags)
    .transform((tags) => [...new Set(tags)]),
  question: z.preprocess((q) => (q && typeof q === 'object' && !Array.isArray(q) ? { ...q, id: 'bank' } : q), questionSchema),
});
export type BankQuestionInput = z.input<typeof bankQuestionInputSchema>;

export const bankListQuerySchema = z.object({ ...pagingFields(20, 100), tag: bankTagSchema.optional() });
export type BankListQuery = z.input<typeof bankListQuerySchema>;

export interface BankQuestion {
  id: string;
  courseId: string;
  tags: string[];
  /** The whole question, answers included: a bank is read by authors only. */
  question: Question;
  /** Optimistic concurrency: If-Match "<version>" on PATCH; 412 when stale. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface BankPage extends Page<BankQuestion> {
  /** Every tag of the course's bank with its number of questions (the draw's choices). */
  tags: Array<{ tag: string; count: number }>;
}

/** A quiz's draw: `count` questions with `tag` from its course's bank, per attempt. */
export const quizDrawSchema = z.object({
  tag: bankTagSchema,
  count: z.coerce
    .number({ error: BANK_MSG.drawCount })
    .int(BANK_MSG.drawCount)
    .min(1, BANK_MSG.drawCount)
    .max(50, BANK_MSG.drawCount),
});
export const quizDrawsSchema = z
  .array(quizDrawSchema)
  .max(10, BANK_MSG.tooManyDraws)
  .superRefine((draws, ctx) => {
    const seen = new Set<string>();
    draws.forEach((d, i) => {
      if (seen.has(d.tag))
        ctx.addIssue({ code: 'custom', message: BANK_MSG.drawTagTwice.replace('{tag}', d.tag), path: [i, 'tag'] });
      seen.add(d.tag);
    });
  });
export type QuizDraw = z.infer<typeof quizDrawSchema>;
