/** A course-generation job as the server answers it, for tests: running at its first stage unless told otherwise. */
import { GENERATION_MSG, type GenerationJob } from '@portal/contracts';

export const generationJob = (changes: Partial<GenerationJob> = {}): GenerationJob => ({
  id: 'j1',
  kind: 'course',
  status: 'running',
  stage: 'structure',
  progress: 0,
  source: 'template',
  notice: GENERATION_MSG.templateNotice,
  error: null,
  courseId: null,
  targetId: null,
  proposal: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...changes,
});
