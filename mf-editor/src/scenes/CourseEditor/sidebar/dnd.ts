import { useState } from 'react';
import {
  closestCenter,
  closestCorners,
  pointerWithin,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import type { EditorCourse, EditorModule } from '../../../model/structure';
import type { LessonOrigin, StructureMoves } from '../state/useMoves';

/** What a dragged or hovered item of the structure is: a module, a lesson, or a module's body. */
export type DragData =
  | { kind: 'module'; moduleId: string; label: string }
  | { kind: 'lesson'; moduleId: string; lessonId: string; label: string }
  | { kind: 'container'; moduleId: string; label: string };

export const dataOf = (item: { data: { current?: unknown } } | null): DragData | null =>
  (item?.data.current as DragData | undefined) ?? null;

/**
 * Modules drag among modules (closest centre); lessons drag over lessons and over module bodies,
 * so a lesson can go into an empty or collapsed module as well.
 */
export const collision: CollisionDetection = (args) => {
  const kind = dataOf(args.active)?.kind;
  if (kind === 'module') {
    return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => dataOf(c)?.kind === 'module') });
  }
  const targets = args.droppableContainers.filter((c) => dataOf(c)?.kind === 'lesson' || dataOf(c)?.kind === 'container');
  const within = pointerWithin({ ...args, droppableContainers: targets });
  const hits = within.length ? within : closestCorners({ ...args, droppableContainers: targets });
  const first = hits[0];
  const container = first ? targets.find((c) => c.id === first.id) : undefined;
  if (container && dataOf(container)?.kind === 'container') {
    // Over a module body that has lessons: aim at its nearest lesson instead.
    const lessons = targets.filter(
      (c) => dataOf(c)?.kind === 'lesson' && dataOf(c)?.moduleId === dataOf(container)?.moduleId && c.id !== args.active.id,
    );
    if (lessons.length) {
      const nearest = closestCenter({ ...args, droppableContainers: lessons });
      if (nearest.length) return nearest;
    }
  }
  return hits;
};

/**
 * Dragging modules and lessons of the course: a lesson is shown in another module while it is
 * dragged over it, and each move is kept (or undone) when the drag ends (or is cancelled).
 */
export function useStructureDrag(course: EditorCourse, props: StructureMoves) {
  const [origin, setOrigin] = useState<
    { kind: 'module'; index: number } | { kind: 'lesson'; lessonId: string; at: LessonOrigin } | null
  >(null);

  const where = (lessonId: string): LessonOrigin | null => {
    for (const m of course.modules) {
      const index = m.lessons.findIndex((l) => l.id === lessonId);
      if (index >= 0) return { moduleId: m.id, index };
    }
    return null;
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    const data = dataOf(active);
    if (data?.kind === 'module') setOrigin({ kind: 'module', index: course.modules.findIndex((m) => m.id === data.moduleId) });
    if (data?.kind === 'lesson') {
      const at = where(data.lessonId);
      if (at) setOrigin({ kind: 'lesson', lessonId: data.lessonId, at });
    }
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    const a = dataOf(active);
    const o = dataOf(over);
    if (a?.kind !== 'lesson' || !o || o.kind === 'module') return;
    const current = where(a.lessonId);
    if (!current || current.moduleId === o.moduleId) return;
    // Into another module: live, so the list shows where it will land.
    const target = course.modules.find((m) => m.id === o.moduleId);
    if (!target) return;
    let index = target.lessons.length;
    if (o.kind === 'lesson') {
      const overIndex = target.lessons.findIndex((l) => l.id === o.lessonId);
      const below =
        over && active.rect.current.translated
          ? active.rect.current.translated.top > over.rect.top + over.rect.height / 2
          : false;
      index = overIndex + (below ? 1 : 0);
    }
    props.onPreviewLessonMove(a.lessonId, o.moduleId, index);
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const a = dataOf(active);
    const o = dataOf(over);
    const start = origin;
    setOrigin(null);
    if (a?.kind === 'module' && start?.kind === 'module') {
      if (o?.kind === 'module' && o.moduleId !== a.moduleId)
        props.onPreviewModuleMove(
          a.moduleId,
          course.modules.findIndex((m) => m.id === o.moduleId),
        );
      props.onPersistModuleMove(a.moduleId, start.index);
      return;
    }
    if (a?.kind === 'lesson' && start?.kind === 'lesson') {
      const current = where(a.lessonId);
      if (o?.kind === 'lesson' && current && o.moduleId === current.moduleId && o.lessonId !== a.lessonId) {
        const target = course.modules.find((m) => m.id === o.moduleId) as EditorModule;
        props.onPreviewLessonMove(
          a.lessonId,
          o.moduleId,
          target.lessons.findIndex((l) => l.id === o.lessonId),
        );
      }
      props.onPersistLessonMove(a.lessonId, start.at);
    }
  };

  const onDragCancel = () => {
    const start = origin;
    setOrigin(null);
    // A lesson shown in another module while dragging goes back where it was.
    if (start?.kind === 'lesson') props.onPreviewLessonMove(start.lessonId, start.at.moduleId, start.at.index);
  };

  return { onDragStart, onDragOver, onDragEnd, onDragCancel };
}
