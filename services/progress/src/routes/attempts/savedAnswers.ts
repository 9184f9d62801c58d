import { z } from 'zod';
import { answerValueSchema, type SavedAnswers } from '@portal/contracts';
import { conforms } from '@portal/service-kit';

/**
 * The answers a learner saved on their unfinished attempt: given back on a resume, or on another device.
 * A file of its own: the results' schemas (an attempt's detail) and the attempts' (a started attempt)
 * both hold it, and the attempts' hold the results' attempt summary.
 */
export const savedAnswersSchema = conforms<SavedAnswers>().as(
  z
    .object({
      answers: z.array(z.object({ questionId: z.string(), answer: answerValueSchema, timeSpent: z.number() })),
      savedAt: z.string().meta({ format: 'date-time', example: '2026-12-04T09:30:00.000Z' }),
    })
    .meta({ id: 'SavedAnswers', description: 'Ответы, сохранённые учащимся по ходу попытки (только своей и незавершённой)' }),
);
