import { z } from 'zod';
import { QUESTION_TYPES, entityIdField, reviewQuestionIdParam, type ReviewPage } from '@portal/contracts';
import { conforms, EXAMPLE_ID } from '@portal/service-kit';

/** The answer to grade: its attempt and the question in it. */
export const reviewParams = z.object({
  attemptId: entityIdField('attemptId').meta({ description: 'Идентификатор попытки', example: EXAMPLE_ID }),
  questionId: reviewQuestionIdParam.meta({ description: 'Идентификатор вопроса', example: 'q1' }),
});

const reviewItem = z.object({
  attemptId: z.string().meta({ example: EXAMPLE_ID }),
  questionId: z.string(),
  type: z.enum(QUESTION_TYPES),
  question: z.string().meta({ example: 'Опишите порядок эвакуации' }),
  answerText: z.string().nullable(),
  fileUrl: z.string().nullable(),
  points: z.number(),
  userName: z.string().meta({ example: 'Иван Петров' }),
  courseTitle: z.string(),
  quizTitle: z.string(),
  completedAt: z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' }).nullable(),
});

export const reviewPageSchema = conforms<ReviewPage>().as(
  z
    .object({ data: z.array(reviewItem), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
    .meta({ id: 'ReviewPage' }),
);
