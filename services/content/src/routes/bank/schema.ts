import { z } from 'zod';
import { questionSchema, type BankPage, type BankQuestion } from '@portal/contracts';
import { conforms, EXAMPLE_ID, pageFields } from '@portal/service-kit';

const isoDate = z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });

export const bankParams = z.object({
  courseId: z.string().meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }),
});

export const bankQuestionParams = bankParams.extend({
  questionId: z.string().meta({ description: 'Идентификатор вопроса банка', example: EXAMPLE_ID }),
});

/** The entity tag of a question's version: sent back as If-Match with a write. */
export const etagHeader = z.object({
  ETag: z.string().meta({ description: 'Версия записи для If-Match / If-None-Match', example: '"3"' }),
});

export const bankQuestionSchema = conforms<BankQuestion>().as(
  z
    .object({
      id: z.string().meta({ example: EXAMPLE_ID }),
      courseId: z.string(),
      tags: z.array(z.string()).meta({ example: ['охрана труда'] }),
      question: questionSchema,
      version: z.number().int(),
      createdAt: isoDate,
      updatedAt: isoDate,
    })
    .meta({ id: 'BankQuestion', description: 'Вопрос банка курса (с правильным ответом: только для авторов)' }),
);

export const bankPageSchema = conforms<BankPage>().as(
  z
    .object({
      ...pageFields(bankQuestionSchema),
      tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
    })
    .meta({ id: 'BankPage' }),
);
