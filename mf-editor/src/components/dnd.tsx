import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DndContextProps,
  type UniqueIdentifier,
  type Active,
  type Over,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { DRAG } from '@portal/contracts';

/**
 * A mouse drag starts after 5 px, a touch drag after a 120 ms press; the keyboard
 * (space or Enter, arrows, space or Enter, Escape) does everything a pointer does.
 */
function useEditorSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: DRAG.mouseDistancePx } }),
    useSensor(TouchSensor, { activationConstraint: { delay: DRAG.touchDelayMs, tolerance: DRAG.touchTolerancePx } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

/** Auto-scroll moves at most 28 px per step (dnd-kit's speed is acceleration × nearness to the edge). */
const AUTO_SCROLL = { acceleration: DRAG.autoScrollMaxPx };

const labelOf = (item: Active | Over | null, fallback: UniqueIdentifier = '') => String(item?.data.current?.label ?? fallback);

/** What a screen reader hears while dragging, in Russian. */
const ANNOUNCEMENTS: Announcements = {
  onDragStart: ({ active }) => `Взят элемент «${labelOf(active, active.id)}».`,
  onDragOver: ({ active, over }) =>
    over ? `«${labelOf(active)}» над «${labelOf(over, over.id)}».` : `«${labelOf(active)}» вне списка.`,
  onDragEnd: ({ active, over }) =>
    over ? `«${labelOf(active)}» перемещён на место «${labelOf(over, over.id)}».` : `«${labelOf(active)}» отпущен.`,
  onDragCancel: ({ active }) => `Перемещение «${labelOf(active)}» отменено.`,
};

const SCREEN_READER_INSTRUCTIONS = {
  draggable:
    'Чтобы взять элемент, нажмите пробел или Enter. Перемещайте его стрелками, отпустите пробелом или Enter, Escape отменяет перемещение.',
};

const ACCESSIBILITY = { announcements: ANNOUNCEMENTS, screenReaderInstructions: SCREEN_READER_INSTRUCTIONS };

/** The editor's drag and drop (the lesson's blocks, the course's modules and lessons): its sensors, auto-scroll and announcements. */
export function EditorDndContext(props: Omit<DndContextProps, 'sensors' | 'autoScroll' | 'accessibility'>) {
  const sensors = useEditorSensors();
  return <DndContext sensors={sensors} autoScroll={AUTO_SCROLL} accessibility={ACCESSIBILITY} {...props} />;
}
