import { z } from 'zod';
import {
  QUESTION_TYPES,
  RESULT_STATUSES,
  SHOW_EXPLANATIONS,
  type AttemptDetail,
  type AttemptSummary,
  type ResultsPage,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';
import { savedAnswersSchema } from '../attempts/savedAnswers';

const id = z.string().meta({ example: EXAMPLE_ID });

const attemptSummaryShape = {
  id,
  userId: z.string(),
  userName: z.string().meta({ example: 'Иван Петров' }),
  quizId: z.string(),
  quizTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  lessonId: z.string(),
  courseVersion: z.number().int().optional().meta({ description: 'Версия курса, на которой пройдена попытка' }),
  attemptNumber: z.number().int(),
  status: z
    .enum([...RESULT_STATUSES, 'in_progress', 'submitted'])
    .meta({ description: '«submitted»: попытка кандидата, которому ссылка не показывает результат' }),
  score: z.number(),
  maxScore: z.number(),
  percentage: z.number(),
  passingScore: z.number(),
  startedAt: isoDateTime,
  completedAt: isoDateTime.nullable(),
  durationMinutes: z.number().nullable(),
  pendingReviews: z.number().int().optional().meta({ description: 'Ответов ждут проверки куратором («на проверке»)' }),
  viaLink: z.boolean().optional().meta({ description: 'Пройдено кандидатом по ссылке' }),
  resultHidden: z.boolean().optional().meta({ description: 'Ссылка не показывает кандидату результат' }),
};

/** An attempt in a list: the results, the quiz's card, a started attempt. */
export const attemptSummarySchema = conforms<AttemptSummary>().as(z.object(attemptSummaryShape).meta({ id: 'AttemptSummary' }));

const answerReview = z
  .object({ score: z.number(), comment: z.string(), reviewerName: z.string(), reviewedAt: isoDateTime })
  .meta({ id: 'AnswerReview' });

/** An attempt with its results by question: what the learner's submit, a reader and a grader get. */
export const attemptDetailSchema = conforms<AttemptDetail>().as(
  z
    .object({
      ...attemptSummaryShape,
      showExplanations: z.enum(SHOW_EXPLANATIONS),
      questionsRevealed: z.boolean(),
      correctAnswersRevealed: z.boolean(),
      questions: z.array(
        z.object({
          questionId: z.string(),
          type: z.enum(QUESTION_TYPES),
          question: z.string(),
          answerText: z.string().nullable(),
          isCorrect: z.boolean(),
          correctAnswerText: z.string().nullable(),
          explanation: z.string().nullable(),
          timeSpent: z.number(),
          review: answerReview.nullable().optional(),
        }),
      ),
      lateAnswers: z.number().int(),
      pendingReviews: z
        .number()
        .int()
        .meta({ description: 'Ответов ждут проверки куратором; пока больше 0, попытка «на проверке»' }),
      savedAnswers: savedAnswersSchema.optional(),
    })
    .meta({ id: 'AttemptDetail' }),
);

export const resultsPageSchema = conforms<ResultsPage>().as(
  z
    .object({
      data: z.array(attemptSummarySchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      summary: z.object({
        total: z.number().int(),
        passed: z.number().int(),
        failed: z.number().int(),
        pending: z.number().int().meta({ description: 'Попытки «На проверке»: не входят в passed и failed' }),
        averagePercentage: z.number(),
      }),
    })
    .meta({ id: 'ResultsPage' }),
);
