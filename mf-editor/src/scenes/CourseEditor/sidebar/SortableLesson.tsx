import styled from 'styled-components';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { COURSE_STATUS_ICONS, COURSE_STATUS_LABELS, type ChangeKind } from '@portal/contracts';
import { DragHandle } from '@portal/ui';
import type { EditorLesson } from '../../../model/structure';
import { ChangeMark } from '../versions/ChangeMark';
import type { DragData } from './dnd';

/** A lesson of the structure: selected by a click, dragged by its handle, with its status and change mark. */
export function SortableLesson({
  lesson,
  moduleId,
  selected,
  mark,
  onSelect,
}: {
  lesson: EditorLesson;
  moduleId: string;
  selected: boolean;
  mark?: ChangeKind;
  onSelect: (id: string) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: `lesson:${lesson.id}`,
    data: { kind: 'lesson', moduleId, lessonId: lesson.id, label: lesson.title } satisfies DragData,
  });
  return (
    <LessonItem ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition }} $dragging={isDragging}>
      <DragHandle ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Перетащить урок «${lesson.title}»`}>
        ⠿
      </DragHandle>
      <LessonButton
        type="button"
        aria-current={selected ? 'true' : undefined}
        $selected={selected}
        onClick={() => onSelect(lesson.id)}
      >
        {lesson.title || 'Без названия'}
      </LessonButton>
      <ChangeMark kind={mark} />
      <StatusIcon
        $status={lesson.status}
        role="img"
        aria-label={`Статус: ${COURSE_STATUS_LABELS[lesson.status]}`}
        title={COURSE_STATUS_LABELS[lesson.status]}
      >
        {COURSE_STATUS_ICONS[lesson.status]}
      </StatusIcon>
    </LessonItem>
  );
}

const LessonItem = styled.li<{ $dragging: boolean }>`
  display: flex;
  align-items: center;
  gap: 4px;
  position: relative;
  opacity: ${({ $dragging }) => ($dragging ? 0.6 : 1)};
  z-index: ${({ $dragging }) => ($dragging ? 2 : 'auto')};
`;
const LessonButton = styled.button<{ $selected: boolean }>`
  flex: 1;
  min-width: 0;
  display: block;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  font: inherit;
  font-size: 14px;
  text-align: left;
  cursor: pointer;
  padding: 6px 8px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme, $selected }) => ($selected ? theme.colors.surfaceAlt : theme.colors.surface)};
  border: 1px solid ${({ theme, $selected }) => ($selected ? theme.colors.primary : theme.colors.border)};
  border-radius: 8px;
`;
const StatusIcon = styled.span<{ $status: EditorLesson['status'] }>`
  flex: none;
  width: 16px;
  text-align: center;
  font-size: 12px;
  color: ${({ theme, $status }) => ($status === 'published' ? theme.colors.success : $status === 'draft' ? theme.colors.warning : theme.colors.muted)};
`;
