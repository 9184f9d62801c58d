import type { ReactNode } from 'react';
import styled from 'styled-components';
import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Active,
  type Announcements,
  type DragEndEvent,
  type Over,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { DRAG } from '@portal/contracts';

/**
 * The sensors of the course editor's drag and drop (mf-editor's EditorDndContext; a remote cannot
 * import another's internals): a mouse drag starts after 5 px, a touch drag after a 120 ms press, and
 * the keyboard (space or Enter, arrows, space or Enter, Escape) does everything a pointer does.
 */
function useProgramSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: DRAG.mouseDistancePx } }),
    useSensor(TouchSensor, { activationConstraint: { delay: DRAG.touchDelayMs, tolerance: DRAG.touchTolerancePx } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

const labelOf = (item: Active | Over | null) => String(item?.data.current?.label ?? item?.id ?? '');

/** What a screen reader hears while dragging, in Russian. */
const ACCESSIBILITY = {
  announcements: {
    onDragStart: ({ active }) => `Взят элемент «${labelOf(active)}».`,
    onDragOver: ({ active, over }) =>
      over ? `«${labelOf(active)}» над «${labelOf(over)}».` : `«${labelOf(active)}» вне списка.`,
    onDragEnd: ({ active, over }) =>
      over ? `«${labelOf(active)}» перемещён на место «${labelOf(over)}».` : `«${labelOf(active)}» отпущен.`,
    onDragCancel: ({ active }) => `Перемещение «${labelOf(active)}» отменено.`,
  } satisfies Announcements,
  screenReaderInstructions: {
    draggable:
      'Чтобы взять элемент, нажмите пробел или Enter. Перемещайте его стрелками, отпустите пробелом или Enter, Escape отменяет перемещение.',
  },
};

interface SortableListProps {
  /** The ids of the items, in order (each item calls useSortable with its own). */
  ids: string[];
  /** An item was dropped at another item's place. */
  onMove: (from: number, to: number) => void;
  children: ReactNode;
}

/**
 * One vertical list ordered by drag and drop. Lists nest (a stage's courses inside the stages): each
 * has its own context, so a course never leaves its stage and a stage never lands among courses.
 */
export function SortableList({ ids, onMove, children }: SortableListProps) {
  const sensors = useProgramSensors();
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} accessibility={ACCESSIBILITY} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/**
 * An item of a SortableList: what its row element takes (ref, style, `$dragging`) and its drag handle,
 * a button named by the caller (none while the list is read-only).
 */
export function useSortableRow(id: string, label: string, readOnly: boolean) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    data: { label },
    disabled: readOnly,
  });
  const row = { ref: setNodeRef, style: { transform: CSS.Transform.toString(transform), transition }, $dragging: isDragging };
  const handle = (name: string) =>
    readOnly ? null : (
      <DragHandle type="button" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={name}>
        ⠿
      </DragHandle>
    );
  return { row, handle };
}

/** The drag handle (the course editor's ⠿): a button, so it is in the tab order and the keyboard can take it. */
export const DragHandle = styled.button`
  flex-shrink: 0;
  width: 32px;
  height: 32px;
  display: inline-grid;
  place-items: center;
  border: 1px solid transparent;
  border-radius: 6px;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: grab;
  touch-action: none;
  font-size: 18px;
  &:hover {
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
  &:disabled {
    cursor: default;
    opacity: 0.4;
  }
`;
