import type { EditorBackend } from '../../backend/backend';
import type { EditorCourse } from '../../model/structure';
import { useEditedCourse } from './state/editedCourse';
import { useOperationRunner, type OperationRunner } from './state/operationRunner';
import { useAutosaves, type CourseEdits, type SavingState } from './state/useAutosaves';
import { useConflicts, type ConflictState } from './state/useConflicts';
import { useMoves, type StructureMoves } from './state/useMoves';
import { useStructureOperations, type StructureOperations } from './state/useStructureOperations';

/** The course editor's state, one part per concern. */
export interface CourseEditorState {
  course: EditorCourse;
  /** What the author types, autosaved. */
  edits: CourseEdits;
  saving: SavingState;
  /** Structural writes: whether one runs, and why the last one failed. */
  writes: Omit<OperationRunner, 'operate'>;
  structure: StructureOperations;
  moves: StructureMoves;
  conflict: ConflictState;
}

/**
 * The course editor: the course and its structure as edited here, an autosave for the course's
 * fields and each edited lesson, and the structural operations (add, delete, copy, move, import),
 * each written to the server at once.
 */
export function useCourseEditor(initial: EditorCourse, backend: EditorBackend): CourseEditorState {
  const edited = useEditedCourse(initial);
  const { edits, saving, control } = useAutosaves(initial, backend, edited);
  const { operate, ...writes } = useOperationRunner(control.wrote);
  return {
    course: edited.course,
    edits,
    saving,
    writes,
    structure: useStructureOperations(backend, edited, edits, control, operate),
    moves: useMoves(backend, edited, operate),
    conflict: useConflicts(backend, edited, control, operate),
  };
}
