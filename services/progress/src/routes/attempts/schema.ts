import { z } from 'zod';
import { answerValueSchema, entityIdField, type AttemptAnswersSaved, type SavedAnswers } from '@portal/contracts';
import { conforms, EXAMPLE_ID } from '@portal/service-kit';

/** An attempt's id in the path. */
export const attemptParams = z.object({
  id: entityIdField('id').meta({ description: 'Идентификатор попытки', example: EXAMPLE_ID }),
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

/** The answers a learner saved on their unfinished attempt: given back on a resume, or on another device. */
export const savedAnswersSchema = conforms<SavedAnswers>().as(
  z
    .object({
      answers: z.array(z.object({ questionId: z.string(), answer: answerValueSchema, timeSpent: z.number() })),
      savedAt: z.string().meta({ format: 'date-time', example: '2026-12-04T09:30:00.000Z' }),
    })
    .meta({ id: 'SavedAnswers', description: 'Ответы, сохранённые учащимся по ходу попытки (только своей и незавершённой)' }),
);
