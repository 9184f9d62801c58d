import type { EditorBackend } from '../../../backend/backend';
import { lessonReorder, moduleReorder, moveLesson, moveModule } from '../../../model/structure';
import type { EditedCourse } from './editedCourse';
import type { Operate } from './operationRunner';

/** Where a dragged lesson was before the drag: its module and its place in it. */
export interface LessonOrigin {
  moduleId: string;
  index: number;
}

/** What the structure's drag needs to tell: a lesson shown in another module, a move to keep. */
export interface StructureMoves {
  onPreviewLessonMove: (lessonId: string, toModuleId: string, index: number) => void;
  onPersistLessonMove: (lessonId: string, origin: LessonOrigin) => void;
  onPreviewModuleMove: (moduleId: string, index: number) => void;
  onPersistModuleMove: (moduleId: string, fromIndex: number) => void;
}

/**
 * The drag and drop moves of modules and lessons: shown while dragging, written when dropped, and
 * put back where they were if the server refuses.
 */
export function useMoves(backend: EditorBackend, { current, commit }: EditedCourse, operate: Operate): StructureMoves {
  const onPersistLessonMove = (lessonId: string, origin: LessonOrigin) => {
    const target = current().modules.find((m) => m.lessons.some((l) => l.id === lessonId));
    if (!target) return;
    if (target.id === origin.moduleId && target.lessons.findIndex((l) => l.id === lessonId) === origin.index) return;
    void operate('Не удалось переместить урок', async () => {
      try {
        await backend.reorder(lessonReorder(current(), [...new Set([origin.moduleId, target.id])]));
      } catch (err) {
        commit(moveLesson(current(), lessonId, origin.moduleId, origin.index));
        throw err;
      }
    });
  };

  const onPersistModuleMove = (moduleId: string, fromIndex: number) => {
    if (current().modules.findIndex((m) => m.id === moduleId) === fromIndex) return;
    void operate('Не удалось переместить модуль', async () => {
      try {
        await backend.reorder(moduleReorder(current()));
      } catch (err) {
        commit(moveModule(current(), moduleId, fromIndex));
        throw err;
      }
    });
  };

  return {
    onPreviewLessonMove: (lessonId, toModuleId, index) => commit(moveLesson(current(), lessonId, toModuleId, index)),
    onPersistLessonMove,
    onPreviewModuleMove: (moduleId, index) => commit(moveModule(current(), moduleId, index)),
    onPersistModuleMove,
  };
}
