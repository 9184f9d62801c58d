import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { type BlockRecord, type Course } from '@portal/contracts';
import { errorMessage } from '@portal/web-core';
import { Autosaver, combineStatuses, type AutosaveStatus } from '../../autosave/autosave';
import { copyTitle, settleCourseConflict, type ConflictChoice } from '../../autosave/conflicts';
import {
  courseAutosave,
  courseWrite,
  isConflict,
  lessonAutosave,
  type CourseDraft,
  type LessonDraft,
} from '../../autosave/savers';
import type { EditorBackend } from '../../backend/backend';
import { withAccepted, type RegenerateTarget } from '../../model/proposal';
import {
  addModule as withModule,
  courseFieldsOf,
  draftLessons,
  findLesson,
  fromCourse,
  insertLesson,
  lessonFromRecord,
  lessonReorder,
  moduleFromRecord,
  moduleReorder,
  moveLesson,
  moveModule,
  newLessonPosition,
  newModulePosition,
  nextLessonTitle,
  nextModuleTitle,
  removeLesson,
  removeModule,
  renameModule as withModuleTitle,
  updateLesson,
  withLoadedLesson,
  withServerLesson,
  type EditorCourse,
  type EditorLesson,
} from '../../model/structure';

/** Said when pending edits could not be saved before a regeneration. */
export const UNSAVED_BEFORE_REGENERATE =
  'Не удалось сохранить последние изменения. Дождитесь сохранения или нажмите «Повторить», затем сгенерируйте снова.';

const lessonDraftOf = (l: EditorLesson): LessonDraft => ({
  id: l.id,
  title: l.title,
  description: l.description,
  status: l.status,
  blocks: l.blocks,
});

export interface LessonOrigin {
  moduleId: string;
  index: number;
}

/**
 * The course editor's state: the course and its structure as edited here, one autosave machine for
 * the course's fields and one per edited lesson, and the structural operations (add, delete, copy,
 * move, import), each written to the server at once.
 */
export function useCourseEditor(initial: EditorCourse, backend: EditorBackend) {
  const [course, setCourse] = useState(initial);
  const courseRef = useRef(initial);
  const commit = useCallback((next: EditorCourse) => {
    courseRef.current = next;
    setCourse(next);
  }, []);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(0);
  /** Moves on after each write that reached the server (an autosave or a structural operation). */
  const [saves, wrote] = useReducer((n: number) => n + 1, 0);
  /** The lesson, or the course form, another author saved first (412), until its author chooses what to do. */
  const [conflict, setConflict] = useState<{ kind: 'lesson'; id: string } | { kind: 'course' } | null>(null);
  /** Moves on when the course form is replaced by the stored fields, so fields holding typed text start again. */
  const [courseRevision, setCourseRevision] = useState(0);
  /** The course «Сохранить мою как копию» made, named in the overview. */
  const [courseCopy, setCourseCopy] = useState<{ id: string; title: string } | null>(null);

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

  const saverOf = useCallback(
    (lesson: EditorLesson) => {
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
    },
    [backend],
  );

  const allSavers = useCallback(
    (): Array<Autosaver<CourseDraft> | Autosaver<LessonDraft>> => [courseSaver, ...lessonSavers.current.values()],
    [courseSaver],
  );

  useEffect(() => courseSaver.subscribe(rerender), [courseSaver]);

  // Leaving the editor saves what is waiting; closing the tab with unsaved work asks first.
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

  /** Runs a structural operation; a failure is shown in the sidebar (the spec only logged it). */
  const operate = useCallback(async <T>(failure: string, run: () => Promise<T>): Promise<T | null> => {
    setBusy((n) => n + 1);
    setNotice(null);
    try {
      const done = await run();
      wrote();
      return done;
    } catch (err) {
      console.error(failure, err);
      setNotice(`${failure}: ${errorMessage(err)}`);
      return null;
    } finally {
      setBusy((n) => n - 1);
    }
  }, []);

  const changeCourse = (patch: Partial<CourseDraft>) => {
    const next = { ...courseRef.current, ...patch };
    commit(next);
    courseSaver.change(courseFieldsOf(next));
  };

  const changeLesson = (lessonId: string, patch: Partial<LessonDraft>) => {
    const before = findLesson(courseRef.current, lessonId);
    // Only a loaded lesson is edited: its save sends every block, and an unread lesson has none here.
    if (!before?.loaded) return;
    const saver = saverOf(before);
    const next = updateLesson(courseRef.current, lessonId, patch);
    commit(next);
    saver.change(lessonDraftOf(findLesson(next, lessonId) as EditorLesson));
  };

  /** A lesson's blocks, read when it was opened (or prefetched), join the editor's copy. */
  const lessonLoaded = useCallback((record: BlockRecord) => commit(withLoadedLesson(courseRef.current, record)), [commit]);

  const addModule = () =>
    operate('Не удалось добавить модуль', async () => {
      const c = courseRef.current;
      const record = await backend.createModule(c.id, nextModuleTitle(c), newModulePosition(c));
      commit(withModule(courseRef.current, moduleFromRecord(record)));
      return record.id;
    });

  const addLesson = (moduleId: string) =>
    operate('Не удалось добавить урок', async () => {
      const c = courseRef.current;
      const mod = c.modules.find((m) => m.id === moduleId);
      if (!mod) return null;
      const record = await backend.createLesson({
        courseId: c.id,
        moduleId,
        title: nextLessonTitle(c),
        position: newLessonPosition(mod),
      });
      commit(insertLesson(courseRef.current, lessonFromRecord(record)));
      return record.id;
    });

  const renameModule = (moduleId: string, title: string) => {
    const before = courseRef.current.modules.find((m) => m.id === moduleId);
    const trimmed = title.trim();
    if (!before || !trimmed || trimmed === before.title) return;
    commit(withModuleTitle(courseRef.current, moduleId, trimmed));
    void operate('Не удалось переименовать модуль', async () => {
      try {
        await backend.updateBlock(moduleId, { title: trimmed });
      } catch (err) {
        commit(withModuleTitle(courseRef.current, moduleId, before.title));
        throw err;
      }
    });
  };

  const forget = (lessonId: string) => {
    lessonSavers.current.get(lessonId)?.dispose();
    lessonSavers.current.delete(lessonId);
  };

  const deleteModule = (moduleId: string) =>
    operate('Не удалось удалить модуль', async () => {
      await backend.deleteBlock(moduleId);
      courseRef.current.modules.find((m) => m.id === moduleId)?.lessons.forEach((l) => forget(l.id));
      commit(removeModule(courseRef.current, moduleId));
      return true;
    });

  const deleteLesson = (lessonId: string) =>
    operate('Не удалось удалить урок', async () => {
      await backend.deleteBlock(lessonId);
      forget(lessonId);
      commit(removeLesson(courseRef.current, lessonId));
      return true;
    });

  /**
   * «Опубликовать черновики»: every draft lesson becomes published, so learners see it. A lesson open
   * here goes through its own autosave (its text stays based on its version); the others at once.
   */
  const publishDraftLessons = () =>
    operate('Не удалось опубликовать уроки', async () => {
      for (const lesson of draftLessons(courseRef.current)) {
        if (lesson.loaded) {
          changeLesson(lesson.id, { status: 'published' });
          await lessonSavers.current.get(lesson.id)?.flush();
        } else {
          await backend.updateBlock(lesson.id, { status: 'published' });
          commit(updateLesson(courseRef.current, lesson.id, { status: 'published' }));
        }
      }
      return true;
    });

  /** The copy is made by the server from what is stored, so the original is saved first. */
  const copyLesson = (lessonId: string) =>
    operate('Не удалось скопировать урок', async () => {
      await lessonSavers.current.get(lessonId)?.flush();
      const record = await backend.copyLesson(lessonId);
      const c = courseRef.current;
      const mod = c.modules.find((m) => m.lessons.some((l) => l.id === lessonId));
      const index = mod ? mod.lessons.findIndex((l) => l.id === lessonId) + 1 : undefined;
      commit(insertLesson(c, lessonFromRecord(record), index));
      return record.id;
    });

  /** A move shown while dragging; written by persistLessonMove when dropped. */
  const previewLessonMove = (lessonId: string, toModuleId: string, index: number) =>
    commit(moveLesson(courseRef.current, lessonId, toModuleId, index));
  const previewModuleMove = (moduleId: string, index: number) => commit(moveModule(courseRef.current, moduleId, index));

  const persistLessonMove = (lessonId: string, origin: LessonOrigin) => {
    const c = courseRef.current;
    const target = c.modules.find((m) => m.lessons.some((l) => l.id === lessonId));
    if (!target) return;
    if (target.id === origin.moduleId && target.lessons.findIndex((l) => l.id === lessonId) === origin.index) return;
    void operate('Не удалось переместить урок', async () => {
      try {
        await backend.reorder(lessonReorder(courseRef.current, [...new Set([origin.moduleId, target.id])]));
      } catch (err) {
        commit(moveLesson(courseRef.current, lessonId, origin.moduleId, origin.index));
        throw err;
      }
    });
  };

  const persistModuleMove = (moduleId: string, fromIndex: number) => {
    if (courseRef.current.modules.findIndex((m) => m.id === moduleId) === fromIndex) return;
    void operate('Не удалось переместить модуль', async () => {
      try {
        await backend.reorder(moduleReorder(courseRef.current));
      } catch (err) {
        commit(moveModule(courseRef.current, moduleId, fromIndex));
        throw err;
      }
    });
  };

  const addImported = (records: BlockRecord[]) => {
    let next = courseRef.current;
    for (const record of records) next = insertLesson(next, lessonFromRecord(record));
    commit(next);
    wrote();
  };

  /**
   * Before a regeneration everything waiting is saved: the server builds the proposal from what is
   * stored, and an edit landing after the proposal would make it stale for no reason.
   */
  const saveBeforeRegenerate = async (): Promise<string | null> => {
    const pending = allSavers();
    await Promise.all(pending.map((saver) => saver.flush()));
    return pending.some((saver) => saver.isDirty()) ? UNSAVED_BEFORE_REGENERATE : null;
  };

  /** An accepted proposal: the node takes the server's version; its old autosavers go (their baseline is gone). */
  const applyAccepted = (target: RegenerateTarget, server: Course): EditorCourse => {
    const before = courseRef.current;
    if (target.kind === 'lesson') forget(target.id);
    if (target.kind === 'module') before.modules.find((m) => m.id === target.id)?.lessons.forEach((l) => forget(l.id));
    const next = withAccepted(before, fromCourse(server), target);
    commit(next);
    wrote();
    return next;
  };

  /**
   * The author's answer to a conflict. Their text stays in the editor until now: «Перезаписать»
   * saves it over the other version (based on that version), «Сохранить мою как копию» makes a new
   * lesson of it right after the original and shows the other version in the original, «Загрузить
   * их версию» shows the other version.
   */
  const resolveLessonConflict = (lessonId: string, choice: ConflictChoice) =>
    operate('Не удалось сохранить урок', async () => {
      const mine = findLesson(courseRef.current, lessonId);
      if (!mine) return setConflict(null);
      // Reading the stored lesson also takes its version: the next write is based on it.
      const theirs = await backend.getBlock(lessonId);
      if (choice === 'overwrite') {
        setConflict(null);
        lessonSavers.current.get(lessonId)?.saveNow();
        return;
      }
      if (choice === 'copy') {
        const mod = courseRef.current.modules.find((m) => m.id === mine.moduleId);
        const index = (mod?.lessons.findIndex((l) => l.id === lessonId) ?? -1) + 1;
        const record = await backend.createLesson({
          courseId: courseRef.current.id,
          moduleId: mine.moduleId,
          title: copyTitle(mine.title, 300),
          description: mine.description,
          status: mine.status,
          content: mine.blocks,
          position: index,
        });
        commit(insertLesson(courseRef.current, lessonFromRecord(record), index));
      }
      forget(lessonId);
      commit(withServerLesson(courseRef.current, theirs));
      setConflict(null);
    });

  /**
   * The same for the course form (settleCourseConflict): the author's fields stay until now; after
   * «Загрузить их версию» or a copy the form shows the stored fields.
   */
  const resolveCourseConflict = (choice: ConflictChoice) =>
    operate('Не удалось сохранить курс', async () => {
      // Closed first: an overwrite that meets a third author's version opens it again.
      setConflict(null);
      setCourseCopy(null);
      const outcome = await settleCourseConflict(backend, courseSaver, choice);
      if (outcome.theirs) {
        const { id: _id, ...fields } = outcome.theirs;
        commit({ ...courseRef.current, ...fields });
        setCourseRevision((n) => n + 1);
      }
      if (outcome.copy) setCourseCopy(outcome.copy);
    });

  const resolveConflict = (choice: ConflictChoice) =>
    conflict?.kind === 'lesson'
      ? resolveLessonConflict(conflict.id, choice)
      : conflict?.kind === 'course'
        ? resolveCourseConflict(choice)
        : Promise.resolve(null);

  const savers = allSavers();
  const status: AutosaveStatus = combineStatuses(savers.map((s) => s.getStatus()));
  const dirty = savers.some((s) => s.isDirty());
  /** 'Повторить': every document with a failed or waiting save is saved at once. */
  const saveAllNow = () => {
    for (const saver of allSavers()) if (saver.getStatus().state === 'error' || saver.isDirty()) saver.saveNow();
  };

  return {
    course,
    notice,
    dismissNotice: () => setNotice(null),
    busy: busy > 0,
    saves,
    status,
    dirty,
    saveAllNow,
    /** The title the conflict dialog names (the lesson's or the course's), while one is open. */
    conflictTitle:
      conflict?.kind === 'course' ? course.title : conflict ? (findLesson(course, conflict.id)?.title ?? null) : null,
    resolveConflict,
    courseRevision,
    courseCopy,
    changeCourse,
    changeLesson,
    lessonLoaded,
    addModule,
    addLesson,
    renameModule,
    deleteModule,
    deleteLesson,
    copyLesson,
    publishDraftLessons,
    previewLessonMove,
    previewModuleMove,
    persistLessonMove,
    persistModuleMove,
    addImported,
    saveBeforeRegenerate,
    applyAccepted,
  };
}

export type CourseEditorState = ReturnType<typeof useCourseEditor>;
