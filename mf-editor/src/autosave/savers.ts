import {
  AUTOSAVE_TIMING,
  CONTENT_MSG,
  COURSE_DEFAULTS,
  EDITOR_MSG,
  type ContentBlock,
  type CourseFields,
  type LessonStatus,
} from '@portal/contracts';
import { ApiError } from '@portal/web-core';
import type { AutosaverOptions } from './autosave';

/** Another author saved the document first (412): the author decides what happens, a retry would not help. */
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.status === 412;

/** What the lesson autosave writes (PATCH /blocks/{id}). */
export interface LessonDraft {
  id: string;
  title: string;
  description: string;
  status: LessonStatus;
  blocks: ContentBlock[];
}

/** What the course autosave writes (PATCH /courses/{id}): every field of the course form. */
export interface CourseDraft extends CourseFields {
  id: string;
}

/** The write of a course draft: what the autosave sends (and a copy of the author's version takes). */
export const courseWrite = (doc: CourseDraft) => ({
  title: doc.title.trim(),
  description: doc.description,
  price: doc.price,
  duration: doc.duration,
  // A blank level is the default one, as when the course was created.
  level: doc.level.trim() || COURSE_DEFAULTS.level,
  status: doc.status,
});

const hasId = (answer: unknown) =>
  typeof answer === 'object' &&
  answer !== null &&
  typeof (answer as { id?: unknown }).id === 'string' &&
  (answer as { id: string }).id !== '';

/** The lesson saver: saved 2000 ms after the last edit, 2 retries 2000 ms apart, the lesson guard and answer check. */
export const lessonAutosave = (save: (doc: LessonDraft) => Promise<unknown>): AutosaverOptions<LessonDraft> => ({
  save,
  timing: AUTOSAVE_TIMING.lesson,
  guard: (doc) => (!doc.id || doc.id === 'new' || !doc.title.trim() ? EDITOR_MSG.lessonGuard : null),
  confirm: (answer) => (hasId(answer) ? null : EDITOR_MSG.lessonNotConfirmed),
  isFinal: isConflict,
});

/** The same for courses: 1000 ms, 2 retries 1500 ms apart. */
export const courseAutosave = (save: (doc: CourseDraft) => Promise<unknown>): AutosaverOptions<CourseDraft> => ({
  save,
  timing: AUTOSAVE_TIMING.course,
  guard: (doc) =>
    !doc.id || doc.id === 'new' || !doc.title.trim()
      ? EDITOR_MSG.courseGuard
      : doc.price < 0
        ? CONTENT_MSG.priceMin
        : doc.duration < 0
          ? CONTENT_MSG.durationMin
          : null,
  confirm: (answer) => (hasId(answer) ? null : EDITOR_MSG.courseNotConfirmed),
  isFinal: isConflict,
});
