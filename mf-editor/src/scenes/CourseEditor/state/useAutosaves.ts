import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { BlockRecord } from '@portal/contracts';
import { Autosaver, combineStatuses, type AutosaveStatus } from '../../../autosave/autosave';
import {
  courseAutosave,
  courseWrite,
  isConflict,
  lessonAutosave,
  type CourseDraft,
  type LessonDraft,
} from '../../../autosave/savers';
import type { EditorBackend } from '../../../backend/backend';
import {
  courseFieldsOf,
  findLesson,
  updateLesson,
  withLoadedLesson,
  type EditorCourse,
  type EditorLesson,
} from '../../../model/structure';
import type { EditedCourse } from './editedCourse';

/** Said when pending edits could not be saved before a regeneration. */
export const UNSAVED_BEFORE_REGENERATE =
  'Не удалось сохранить последние изменения. Дождитесь сохранения или нажмите «Повторить», затем сгенерируйте снова.';

/** The lesson, or the course form, another author saved first (412), until its author chooses what to do. */
export type EditorConflict = { kind: 'lesson'; id: string } | { kind: 'course' };

/** What the author types: the course's fields and the open lesson, each saved by its own autosave. */
export interface CourseEdits {
  changeCourse: (patch: Partial<CourseDraft>) => void;
  changeLesson: (lessonId: string, patch: Partial<LessonDraft>) => void;
  /** A lesson's blocks, read when it was opened (or prefetched), join the editor's copy. */
  lessonLoaded: (record: BlockRecord) => void;
}

/** How saving goes, for the save indicator and the steps that need everything stored first. */
export interface SavingState {
  status: AutosaveStatus;
  dirty: boolean;
  /** Moves on after each write that reached the server (an autosave or a structural operation). */
  saves: number;
  /** «Повторить»: every document with a failed or waiting save is saved at once. */
  saveAllNow: () => void;
  /** Saves everything waiting; answers why not all of it could be saved, or null. */
  saveEverything: () => Promise<string | null>;
}

/** The write queue itself, for the operations that replace or drop what an autosave holds. */
export interface SaverControl {
  courseSaver: Autosaver<CourseDraft>;
  lessonSaver: (lessonId: string) => Autosaver<LessonDraft> | undefined;
  /** Drops a lesson's autosave (the lesson is gone, or its stored version replaced the edited one). */
  forget: (lessonId: string) => void;
  /** Counts a write that reached the server outside the autosaves. */
  wrote: () => void;
  conflict: EditorConflict | null;
  setConflict: (conflict: EditorConflict | null) => void;
}

export interface Autosaves {
  edits: CourseEdits;
  saving: SavingState;
  control: SaverControl;
}

const lessonDraftOf = (l: EditorLesson): LessonDraft => ({
  id: l.id,
  title: l.title,
  description: l.description,
  status: l.status,
  blocks: l.blocks,
});

/**
 * One autosave machine for the course's fields and one per edited lesson. Leaving the editor saves
 * what is waiting; closing the tab with unsaved work asks first.
 */
export function useAutosaves(initial: EditorCourse, backend: EditorBackend, { current, commit }: EditedCourse): Autosaves {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [saves, wrote] = useReducer((n: number) => n + 1, 0);
  const [conflict, setConflict] = useState<EditorConflict | null>(null);

  const [courseSaver] = useState(
    () =>
      new Autosaver<CourseDraft>(
        courseFieldsOf(initial),
        courseAutosave(async (doc) => {
          try {
            const answer = await backend.updateCourse(doc.id, courseWrite(doc));
            wrote();
            return answer;
          } catch (err) {
            if (isConflict(err)) setConflict({ kind: 'course' });
            throw err;
          }
        }),
      ),
  );
  const lessonSavers = useRef(new Map<string, Autosaver<LessonDraft>>());

  const saverOf = (lesson: EditorLesson) => {
    let saver = lessonSavers.current.get(lesson.id);
    if (!saver) {
      // The saver's baseline is what is stored: a lesson whose blocks were never read has none.
      if (!lesson.loaded) throw new Error(`lesson ${lesson.id} is not loaded: it cannot be saved`);
      saver = new Autosaver<LessonDraft>(
        lessonDraftOf(lesson),
        lessonAutosave(async (doc) => {
          try {
            const answer = await backend.updateBlock(doc.id, {
              title: doc.title.trim(),
              description: doc.description,
              status: doc.status,
              content: doc.blocks,
            });
            wrote();
            return answer;
          } catch (err) {
            if (isConflict(err)) setConflict({ kind: 'lesson', id: doc.id });
            throw err;
          }
        }),
      );
      saver.subscribe(rerender);
      lessonSavers.current.set(lesson.id, saver);
    }
    return saver;
  };

  const allSavers = (): Array<Autosaver<CourseDraft> | Autosaver<LessonDraft>> => [courseSaver, ...lessonSavers.current.values()];

  useEffect(() => courseSaver.subscribe(rerender), [courseSaver]);

  useEffect(() => {
    const savers = lessonSavers.current;
    const warn = (e: BeforeUnloadEvent) => {
      if ([courseSaver, ...savers.values()].some((s) => s.isDirty() || s.isPending())) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
      for (const saver of [courseSaver, ...savers.values()]) if (saver.isDirty()) saver.saveNow();
    };
  }, [courseSaver]);

  const changeCourse = (patch: Partial<CourseDraft>) => {
    const next = { ...current(), ...patch };
    commit(next);
    courseSaver.change(courseFieldsOf(next));
  };

  const changeLesson = (lessonId: string, patch: Partial<LessonDraft>) => {
    const before = findLesson(current(), lessonId);
    // Only a loaded lesson is edited: its save sends every block, and an unread lesson has none here.
    if (!before?.loaded) return;
    const saver = saverOf(before);
    const next = updateLesson(current(), lessonId, patch);
    commit(next);
    saver.change(lessonDraftOf(findLesson(next, lessonId) as EditorLesson));
  };

  const lessonLoaded = useCallback((record: BlockRecord) => commit(withLoadedLesson(current(), record)), [commit, current]);

  /**
   * Before a regeneration (or a preview, a publication, an import) everything waiting is saved: the
   * server works from what is stored, and an edit landing after it would make its result stale.
   */
  const saveEverything = async (): Promise<string | null> => {
    const pending = allSavers();
    await Promise.all(pending.map((saver) => saver.flush()));
    return pending.some((saver) => saver.isDirty()) ? UNSAVED_BEFORE_REGENERATE : null;
  };

  const forget = (lessonId: string) => {
    lessonSavers.current.get(lessonId)?.dispose();
    lessonSavers.current.delete(lessonId);
  };

  const savers = allSavers();
  return {
    edits: { changeCourse, changeLesson, lessonLoaded },
    saving: {
      status: combineStatuses(savers.map((s) => s.getStatus())),
      dirty: savers.some((s) => s.isDirty()),
      saves,
      saveAllNow: () => {
        for (const saver of allSavers()) if (saver.getStatus().state === 'error' || saver.isDirty()) saver.saveNow();
      },
      saveEverything,
    },
    control: {
      courseSaver,
      lessonSaver: (lessonId) => lessonSavers.current.get(lessonId),
      forget,
      wrote,
      conflict,
      setConflict,
    },
  };
}
