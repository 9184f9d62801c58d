import { useState } from 'react';
import { copyTitle, settleCourseConflict, type ConflictChoice } from '../../../autosave/conflicts';
import type { EditorBackend } from '../../../backend/backend';
import { findLesson, insertLesson, lessonFromRecord, withServerLesson } from '../../../model/structure';
import type { EditedCourse } from './editedCourse';
import type { Operate } from './operationRunner';
import type { SaverControl } from './useAutosaves';

/** A save another author beat (412), and what the author chose to do about it. */
export interface ConflictState {
  /** The title the conflict dialog names (the lesson's or the course's), while one is open. */
  title: string | null;
  resolve: (choice: ConflictChoice) => Promise<unknown>;
  /** Moves on when the course form is replaced by the stored fields, so fields holding typed text start again. */
  courseRevision: number;
  /** The course «Сохранить мою как копию» made, named in the overview. */
  courseCopy: { id: string; title: string } | null;
}

/**
 * The author's answer to a conflict. Their text stays in the editor until now: «Перезаписать»
 * saves it over the other version (based on that version), «Сохранить мою как копию» makes a copy of
 * it and shows the other version in the original, «Загрузить их версию» shows the other version.
 */
export function useConflicts(
  backend: EditorBackend,
  { course, current, commit }: EditedCourse,
  { courseSaver, lessonSaver, forget, conflict, setConflict }: SaverControl,
  operate: Operate,
): ConflictState {
  const [courseRevision, setCourseRevision] = useState(0);
  const [courseCopy, setCourseCopy] = useState<{ id: string; title: string } | null>(null);

  /** A lesson's copy goes right after the original. */
  const resolveLessonConflict = (lessonId: string, choice: ConflictChoice) =>
    operate('Не удалось сохранить урок', async () => {
      const mine = findLesson(current(), lessonId);
      if (!mine) return setConflict(null);
      // Reading the stored lesson also takes its version: the next write is based on it.
      const theirs = await backend.getBlock(lessonId);
      if (choice === 'overwrite') {
        setConflict(null);
        lessonSaver(lessonId)?.saveNow();
        return;
      }
      if (choice === 'copy') {
        const mod = current().modules.find((m) => m.id === mine.moduleId);
        const index = (mod?.lessons.findIndex((l) => l.id === lessonId) ?? -1) + 1;
        const record = await backend.createLesson({
          courseId: current().id,
          moduleId: mine.moduleId,
          title: copyTitle(mine.title, 300),
          description: mine.description,
          status: mine.status,
          content: mine.blocks,
          position: index,
        });
        commit(insertLesson(current(), lessonFromRecord(record), index));
      }
      forget(lessonId);
      commit(withServerLesson(current(), theirs));
      setConflict(null);
    });

  /** The course form (settleCourseConflict): after «Загрузить их версию» or a copy it shows the stored fields. */
  const resolveCourseConflict = (choice: ConflictChoice) =>
    operate('Не удалось сохранить курс', async () => {
      // Closed first: an overwrite that meets a third author's version opens it again.
      setConflict(null);
      setCourseCopy(null);
      const outcome = await settleCourseConflict(backend, courseSaver, choice);
      if (outcome.theirs) {
        const { id: _id, ...fields } = outcome.theirs;
        commit({ ...current(), ...fields });
        setCourseRevision((n) => n + 1);
      }
      if (outcome.copy) setCourseCopy(outcome.copy);
    });

  const resolve = (choice: ConflictChoice) =>
    conflict?.kind === 'lesson'
      ? resolveLessonConflict(conflict.id, choice)
      : conflict?.kind === 'course'
        ? resolveCourseConflict(choice)
        : Promise.resolve(null);

  return {
    title: conflict?.kind === 'course' ? course.title : conflict ? (findLesson(course, conflict.id)?.title ?? null) : null,
    resolve,
    courseRevision,
    courseCopy,
  };
}
