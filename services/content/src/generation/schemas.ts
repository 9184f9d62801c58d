import { z } from 'zod';
import { GENERATION_LIMITS, draftLessonSchema, draftQuizSchema } from '@portal/contracts';

const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * What each provider call must answer. The contract's draft schemas describe the finished draft;
 * these cut it into the pieces one call produces (structure first, then lessons per module).
 */
export const outlineSchema = z.object({
  title: text(200),
  description: z.string().trim().max(5000).default(''),
  modules: z
    .array(
      z.object({
        title: text(200),
        description: z.string().trim().max(2000).default(''),
        lessonTitles: z.array(text(200)).min(1).max(GENERATION_LIMITS.lessonsPerModule),
      }),
    )
    .min(1)
    .max(GENERATION_LIMITS.modules + 2),
});
export type Outline = z.output<typeof outlineSchema>;
export type OutlineModule = Outline['modules'][number];

export const moduleLessonsSchema = z.object({
  lessons: z.array(draftLessonSchema).min(1).max(GENERATION_LIMITS.lessonsPerModule),
});

export const lessonProposalSchema = z.object({ title: text(200), blocks: draftLessonSchema.shape.blocks });

export const moduleProposalSchema = z.object({
  title: text(200),
  description: z.string().trim().max(2000).default(''),
  lessons: moduleLessonsSchema.shape.lessons,
});

export const quizProposalSchema = draftQuizSchema;
