import { z } from 'zod';
import { questionSchema, type BankPage, type BankQuestion } from '@portal/contracts';
import { conforms, etagHeader, EXAMPLE_ID, isoDateTime, pageFields } from '@portal/service-kit';

export const bankParams = z.object({
  courseId: z.string().meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }),
});

export const bankQuestionParams = bankParams.extend({
  questionId: z.string().meta({ description: 'Идентификатор вопроса банка', example: EXAMPLE_ID }),
});

export const bankQuestionSchema = conforms<BankQuestion>().as(
  z
    .object({
      id: z.string().meta({ example: EXAMPLE_ID }),
      courseId: z.string(),
      tags: z.array(z.string()).meta({ example: ['охрана труда'] }),
      question: questionSchema,
      version: z.number().int(),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
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

export { etagHeader };
