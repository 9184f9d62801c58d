import type { GenerationJob } from '@portal/contracts';
import type { JobDoc } from '../models/generationJob';

/** A job's public face. */
export const presentJob = (doc: JobDoc): GenerationJob => ({
  id: doc._id,
  kind: doc.kind,
  status: doc.status,
  stage: doc.stage,
  progress: doc.progress,
  source: doc.source,
  notice: doc.notice,
  error: doc.error,
  courseId: doc.courseId,
  targetId: doc.targetId,
  proposal: doc.proposal ?? null,
  createdAt: new Date(doc.createdAt).toISOString(),
  updatedAt: new Date(doc.updatedAt).toISOString(),
});
