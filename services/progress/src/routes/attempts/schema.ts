import { z } from 'zod';
import {
  SHOW_CORRECT_ANSWERS,
  SHOW_EXPLANATIONS,
  entityIdField,
  playerQuestionSchema,
  type AttemptAnswersSaved,
  type QuizCard,
  type StartedAttempt,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';
import { attemptSummarySchema } from '../results/schema';
import { savedAnswersSchema } from './savedAnswers';

/** An attempt's id in the path. */
export const attemptParams = z.object({
  id: entityIdField('id').meta({ description: 'Идентификатор попытки', example: EXAMPLE_ID }),
});

/** A quiz's id in the path (its card). */
export const quizParams = z.object({
  quizId: entityIdField('quizId').meta({ description: 'Идентификатор квиза', example: EXAMPLE_ID }),
});

export const attemptAnswersSavedSchema = conforms<AttemptAnswersSaved>().as(
  z
    .object({
      savedAt: z
        .string()
        .meta({ description: 'Когда сервер сохранил ответы', format: 'date-time', example: '2026-12-04T09:30:00.000Z' }),
    })
    .meta({ id: 'AttemptAnswersSaved' }),
);

/** The quiz as its card and a started attempt show it: its settings, never its questions' answers. */
const quizInfoSchema = z
  .object({
    id: z.string().meta({ example: EXAMPLE_ID }),
    title: z.string(),
    description: z.string(),
    questionsCount: z.number().int(),
    passingScore: z.number(),
    maxAttempts: z.number().int(),
    timeLimit: z.number().nullable().meta({ description: 'Минуты; null — без ограничения' }),
    showExplanations: z.enum(SHOW_EXPLANATIONS),
    showCorrectAnswers: z.enum(SHOW_CORRECT_ANSWERS),
  })
  .meta({ id: 'QuizInfo' });

/** The quiz card of a lesson: the learner's attempts at it, the best, and whether another may start. */
export const quizCardSchema = conforms<QuizCard>().as(
  z
    .object({
      quiz: quizInfoSchema,
      attemptsUsed: z.number().int(),
      latest: attemptSummarySchema.nullable(),
      best: attemptSummarySchema.nullable(),
      inProgress: z.object({ id: z.string(), deadline: isoDateTime.nullable() }).nullable(),
      canStart: z.boolean(),
      blockedReason: z.string().nullable(),
    })
    .meta({ id: 'QuizCard' }),
);

/** A started (or resumed) attempt: its questions as shown, without a single right answer. */
export const startedAttemptSchema = conforms<StartedAttempt>().as(
  z
    .object({
      attempt: attemptSummarySchema,
      quiz: quizInfoSchema,
      questions: z.array(playerQuestionSchema),
      deadline: isoDateTime.nullable(),
      serverNow: isoDateTime,
      resumed: z.boolean(),
      savedAnswers: savedAnswersSchema.optional(),
    })
    .meta({ id: 'StartedAttempt' }),
);
