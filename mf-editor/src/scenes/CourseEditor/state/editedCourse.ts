import { useCallback, useRef, useState } from 'react';
import type { EditorCourse } from '../../../model/structure';

/** The course and its outline as edited here: what the last render shows, and the latest copy. */
export interface EditedCourse {
  course: EditorCourse;
  /** The latest copy: a handler that awaited reads this, not the course of the render that started it. */
  current: () => EditorCourse;
  /** Replaces the copy (and renders it). */
  commit: (next: EditorCourse) => void;
}

export function useEditedCourse(initial: EditorCourse): EditedCourse {
  const [course, setCourse] = useState(initial);
  const latest = useRef(initial);
  const commit = useCallback((next: EditorCourse) => {
    latest.current = next;
    setCourse(next);
  }, []);
  const current = useCallback(() => latest.current, []);
  return { course, current, commit };
}
