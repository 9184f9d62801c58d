import { z } from 'zod';
import { entityIdField, type AttemptAnswersSaved } from '@portal/contracts';
import { conforms } from '@portal/service-kit';

const EXAMPLE_ID = '6743a1f0c2b5e80012ab34cd';

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
