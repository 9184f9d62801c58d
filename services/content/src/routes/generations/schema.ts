import { z } from 'zod';
import {
  GENERATION_KINDS,
  GENERATION_SOURCES,
  GENERATION_STAGES,
  GENERATION_STATUSES,
  draftBlockSchema,
  draftLessonSchema,
  draftQuestionSchema,
  type GenerationConfigInfo,
  type GenerationJob,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

export const jobParams = z.object({
  id: z.string().meta({ description: 'Идентификатор генерации', example: EXAMPLE_ID }),
});

const proposal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('module'), title: z.string(), description: z.string(), lessons: z.array(draftLessonSchema) }),
  z.object({ kind: z.literal('lesson'), title: z.string(), blocks: z.array(draftBlockSchema) }),
  z.object({ kind: z.literal('quiz'), title: z.string(), questions: z.array(draftQuestionSchema) }),
]);

export const generationJobSchema = conforms<GenerationJob>().as(
  z
    .object({
      id: z.string().meta({ example: EXAMPLE_ID }),
      kind: z.enum(GENERATION_KINDS),
      status: z.enum(GENERATION_STATUSES),
      stage: z.enum(GENERATION_STAGES),
      progress: z.number().meta({ description: '0..100' }),
      source: z.enum(GENERATION_SOURCES),
      notice: z.string(),
      error: z.string().nullable(),
      courseId: z.string().nullable(),
      targetId: z.string().nullable(),
      proposal: proposal.nullable(),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
    })
    .meta({ id: 'GenerationJob' }),
);

export const generationConfigSchema = conforms<GenerationConfigInfo>().as(
  z.object({ source: z.enum(GENERATION_SOURCES), notice: z.string() }).meta({ id: 'GenerationConfig' }),
);
