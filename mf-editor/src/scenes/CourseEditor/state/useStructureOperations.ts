import type { BlockRecord, Course } from '@portal/contracts';
import type { EditorBackend } from '../../../backend/backend';
import { withAccepted, type RegenerateTarget } from '../../../model/proposal';
import {
  addModule as withModule,
  draftLessons,
  fromCourse,
  insertLesson,
  lessonFromRecord,
  moduleFromRecord,
  newLessonPosition,
  newModulePosition,
  nextLessonTitle,
  nextModuleTitle,
  removeLesson,
  removeModule,
  renameModule as withModuleTitle,
  updateLesson,
  type EditorCourse,
} from '../../../model/structure';
import type { EditedCourse } from './editedCourse';
import type { Operate } from './operationRunner';
import type { CourseEdits, SaverControl } from './useAutosaves';

/** The course's structure as the author changes it: each change written to the server at once. */
export interface StructureOperations {
  /** Answers the new module's id, or null when it could not be added. */
  addModule: () => Promise<string | null>;
  /** Answers the new lesson's id, or null. */
  addLesson: (moduleId: string) => Promise<string | null>;
  renameModule: (moduleId: string, title: string) => void;
  deleteModule: (moduleId: string) => Promise<boolean | null>;
  deleteLesson: (lessonId: string) => Promise<boolean | null>;
  /** Answers the copy's id, or null. */
  copyLesson: (lessonId: string) => Promise<string | null>;
  publishDraftLessons: () => Promise<boolean | null>;
  /** Lessons another course's import created on the server. */
  addImported: (records: BlockRecord[]) => void;
  /** An accepted proposal: answers the course as it is now. */
  applyAccepted: (target: RegenerateTarget, server: Course) => EditorCourse;
}

export function useStructureOperations(
  backend: EditorBackend,
  { current, commit }: EditedCourse,
  { changeLesson }: CourseEdits,
  { lessonSaver, forget, wrote }: SaverControl,
  operate: Operate,
): StructureOperations {
  const addModule = () =>
    operate('Не удалось добавить модуль', async () => {
      const c = current();
      const record = await backend.createModule(c.id, nextModuleTitle(c), newModulePosition(c));
      commit(withModule(current(), moduleFromRecord(record)));
      return record.id;
    });

  const addLesson = async (moduleId: string) =>
    (await operate('Не удалось добавить урок', async () => {
      const c = current();
      const mod = c.modules.find((m) => m.id === moduleId);
      if (!mod) return null;
      const record = await backend.createLesson({
        courseId: c.id,
        moduleId,
        title: nextLessonTitle(c),
        position: newLessonPosition(mod),
      });
      commit(insertLesson(current(), lessonFromRecord(record)));
      return record.id;
    })) ?? null;

  const renameModule = (moduleId: string, title: string) => {
    const before = current().modules.find((m) => m.id === moduleId);
    const trimmed = title.trim();
    if (!before || !trimmed || trimmed === before.title) return;
    commit(withModuleTitle(current(), moduleId, trimmed));
    void operate('Не удалось переименовать модуль', async () => {
      try {
        await backend.updateBlock(moduleId, { title: trimmed });
      } catch (err) {
        commit(withModuleTitle(current(), moduleId, before.title));
        throw err;
      }
    });
  };

  const deleteModule = (moduleId: string) =>
    operate('Не удалось удалить модуль', async () => {
      await backend.deleteBlock(moduleId);
      current()
        .modules.find((m) => m.id === moduleId)
        ?.lessons.forEach((l) => forget(l.id));
      commit(removeModule(current(), moduleId));
      return true;
    });

  const deleteLesson = (lessonId: string) =>
    operate('Не удалось удалить урок', async () => {
      await backend.deleteBlock(lessonId);
      forget(lessonId);
      commit(removeLesson(current(), lessonId));
      return true;
    });

  /**
   * «Опубликовать черновики»: every draft lesson becomes published, so learners see it. A lesson open
   * here goes through its own autosave (its text stays based on its version); the others at once.
   */
  const publishDraftLessons = () =>
    operate('Не удалось опубликовать уроки', async () => {
      for (const lesson of draftLessons(current())) {
        if (lesson.loaded) {
          changeLesson(lesson.id, { status: 'published' });
          await lessonSaver(lesson.id)?.flush();
        } else {
          await backend.updateBlock(lesson.id, { status: 'published' });
          commit(updateLesson(current(), lesson.id, { status: 'published' }));
        }
      }
      return true;
    });

  /** The copy is made by the server from what is stored, so the original is saved first. */
  const copyLesson = (lessonId: string) =>
    operate('Не удалось скопировать урок', async () => {
      await lessonSaver(lessonId)?.flush();
      const record = await backend.copyLesson(lessonId);
      const c = current();
      const mod = c.modules.find((m) => m.lessons.some((l) => l.id === lessonId));
      const index = mod ? mod.lessons.findIndex((l) => l.id === lessonId) + 1 : undefined;
      commit(insertLesson(c, lessonFromRecord(record), index));
      return record.id;
    });

  const addImported = (records: BlockRecord[]) => {
    let next = current();
    for (const record of records) next = insertLesson(next, lessonFromRecord(record));
    commit(next);
    wrote();
  };

  /** The node takes the server's version; its old autosavers go (their baseline is gone). */
  const applyAccepted = (target: RegenerateTarget, server: Course): EditorCourse => {
    const before = current();
    if (target.kind === 'lesson') forget(target.id);
    if (target.kind === 'module') before.modules.find((m) => m.id === target.id)?.lessons.forEach((l) => forget(l.id));
    const next = withAccepted(before, fromCourse(server), target);
    commit(next);
    wrote();
    return next;
  };

  return {
    addModule,
    addLesson,
    renameModule,
    deleteModule,
    deleteLesson,
    copyLesson,
    publishDraftLessons,
    addImported,
    applyAccepted,
  };
}
