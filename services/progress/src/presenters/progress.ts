import type { LessonCompletion } from '@portal/contracts';
import type { CompletionDoc } from '../models/completion';

export const presentCompletion = (c: Pick<CompletionDoc, 'lessonId' | 'courseId' | 'completedAt'>): LessonCompletion => ({
  lessonId: c.lessonId,
  courseId: c.courseId,
  completedAt: new Date(c.completedAt).toISOString(),
});
