import { z } from 'zod';
import { ITEM_FLAGS, QUESTION_TYPES, entityIdField, type QuizAnalysisReport } from '@portal/contracts';
import { conforms, EXAMPLE_ID } from '@portal/service-kit';

/** The quiz analysed. */
export const analysisParams = z.object({
  quizId: entityIdField('quizId').meta({ description: 'Идентификатор квиза', example: EXAMPLE_ID }),
});

export const quizAnalysisSchema = conforms<QuizAnalysisReport>().as(
  z
    .object({
      quizId: z.string().meta({ example: EXAMPLE_ID }),
      quizTitle: z.string(),
      totalAttempts: z.number().int(),
      sampleLimit: z.number().int(),
      sampleSize: z.number().int().meta({ description: 'Сколько последних завершённых попыток посчитано' }),
      histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
      items: z.array(
        z.object({
          questionId: z.string(),
          question: z.string(),
          type: z.enum(QUESTION_TYPES),
          attempts: z.number().int(),
          facility: z.number().nullable().meta({ description: 'Доля набранных баллов, %' }),
          discrimination: z.number().nullable().meta({ description: 'Корреляция вопроса с остальным тестом' }),
          options: z.array(z.object({ label: z.string(), count: z.number().int(), correct: z.boolean() })),
          medianTime: z.number().nullable(),
          flags: z.array(z.enum(ITEM_FLAGS)),
        }),
      ),
    })
    .meta({ id: 'QuizAnalysis' }),
);
