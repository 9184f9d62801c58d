import { z } from 'zod';

/*
 * The «SCORM-пакет» content block, apart from the rest of scorm.ts: content.ts lists it among the
 * block types, and scorm.ts imports content.ts (a cycle would leave one of them half-loaded).
 */

export const SCORM_VERSIONS = ['1.2', '2004'] as const;
export type ScormVersion = (typeof SCORM_VERSIONS)[number];

/** What a lesson's «SCORM-пакет» block holds. */
export const scormBlockContentSchema = z.object({
  packageId: z.string().trim().max(100).optional(),
  scoId: z.string().max(1000).optional(),
  title: z.string().max(1000).optional(),
  version: z.enum(SCORM_VERSIONS).optional(),
  /** Whether a learner who completed it may start a new attempt. */
  allowNewAttempt: z.boolean().optional(),
});
export type ScormBlockContent = z.output<typeof scormBlockContentSchema>;
