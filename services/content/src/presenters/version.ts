import type { CourseVersionSummary } from '@portal/contracts';
import type { CourseDoc } from '../models/course';
import type { CourseVersionDoc } from '../models/courseVersion';

export const presentVersion = (v: CourseVersionDoc, course: Pick<CourseDoc, 'published'>): CourseVersionSummary => ({
  number: v.number,
  summary: v.summary,
  publishedBy: { id: v.publishedBy.id, name: v.publishedBy.name },
  publishedAt: new Date(v.publishedAt).toISOString(),
  counts: { added: v.counts?.added ?? 0, removed: v.counts?.removed ?? 0, changed: v.counts?.changed ?? 0 },
  retakeLessonIds: v.retakeLessonIds ?? [],
  current: course.published?.number === v.number,
  pinned: !!v.pinned,
});
