import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  closestCenter,
  closestCorners,
  pointerWithin,
  useDroppable,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { COURSE_STATUS_ICONS, COURSE_STATUS_LABELS, EDITOR_MSG, type ChangeKind } from '@portal/contracts';
import { Button, EyeIcon, Input, Muted, PlainList, Spread, StatusBadge } from '@portal/ui';
import { EditorDndContext } from '../../components/dnd';
import { countBlocks, type EditorCourse, type EditorLesson, type EditorModule } from '../../model/structure';
import { SCORM_IMPORT_MSG } from './ScormImportDialog';
import type { LessonOrigin } from './useCourseEditor';
import { ChangeMark } from './versions/ChangeMark';

type DragData =
  | { kind: 'module'; moduleId: string; label: string }
  | { kind: 'lesson'; moduleId: string; lessonId: string; label: string }
  | { kind: 'container'; moduleId: string; label: string };

interface SidebarProps {
  course: EditorCourse;
  selectedLessonId: string | null;
  overviewOpen: boolean;
  busy: boolean;
  saveIndicator: ReactNode;
  notice: ReactNode;
  /** Modules and lessons that differ from the published version (course versions, decision 093). */
  changeMarks?: ReadonlyMap<string, ChangeKind>;
  onBack: () => void;
  /** «Просмотр как слушатель»; absent on the demo routes (there is no course on the server to study). */
  onPreviewAsLearner?: () => void;
  onToggleOverview: () => void;
  onSelectLesson: (id: string) => void;
  /** Adds a module and answers its id (null when it could not): its name field opens, focused. */
  onAddModule: () => Promise<string | null>;
  onAddLesson: (moduleId: string) => void;
  onNewLessonPage?: (moduleId: string) => void;
  onRenameModule: (moduleId: string, title: string) => void;
  onDeleteModule: (mod: EditorModule) => void;
  /** Absent where nothing can be regenerated (the demo routes). */
  onRegenerateModule?: (mod: EditorModule) => void;
  onImport: () => void;
  /** «Импорт SCORM-пакета как курса»; absent on the demo routes (a package is kept by the server). */
  onScormImport?: () => void;
  onPreviewLessonMove: (lessonId: string, toModuleId: string, index: number) => void;
  onPersistLessonMove: (lessonId: string, origin: LessonOrigin) => void;
  onPreviewModuleMove: (moduleId: string, index: number) => void;
  onPersistModuleMove: (moduleId: string, fromIndex: number) => void;
}

const dataOf = (item: { data: { current?: unknown } } | null): DragData | null =>
  (item?.data.current as DragData | undefined) ?? null;

/**
 * Modules drag among modules (closest centre); lessons drag over lessons and over module bodies,
 * so a lesson can go into an empty or collapsed module as well.
 */
const collision: CollisionDetection = (args) => {
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

/** The course editor's left side: the course, its structure (dragged to reorder), saving and import. */
export function Sidebar(props: SidebarProps) {
  const { course, selectedLessonId, busy } = props;
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [renaming, setRenaming] = useState<string | null>(null);
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

  const toggle = (id: string) =>
    setCollapsed((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Side aria-label="Структура курса">
      <Button type="button" $variant="link" onClick={props.onBack}>
        ← К курсам
      </Button>
      <CourseTitle type="button" aria-pressed={props.overviewOpen} onClick={props.onToggleOverview} title="Обзор курса">
        {course.title}
      </CourseTitle>
      <Line>
        <StatusBadge status={course.status} />
        <Muted as="span">Блоков: {countBlocks(course)}</Muted>
      </Line>
      {props.onPreviewAsLearner && (
        <Button type="button" $variant="secondary" $size="sm" disabled={busy} onClick={props.onPreviewAsLearner}>
          <EyeIcon /> Просмотр как слушатель
        </Button>
      )}
      <Button
        type="button"
        $variant="outline"
        $size="sm"
        disabled={busy}
        onClick={async () => {
          const id = await props.onAddModule();
          if (id) setRenaming(id);
        }}
      >
        + {EDITOR_MSG.addModule}
      </Button>

      <EditorDndContext
        collisionDetection={collision}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
      >
        <SortableContext items={course.modules.map((m) => `module:${m.id}`)} strategy={verticalListSortingStrategy}>
          <PlainList aria-label="Модули">
            {course.modules.length === 0 && <Muted as="li">Модулей пока нет</Muted>}
            {course.modules.map((mod) => (
              <SortableModule
                key={mod.id}
                mod={mod}
                collapsed={collapsed.has(mod.id)}
                renaming={renaming === mod.id}
                busy={busy}
                selectedLessonId={selectedLessonId}
                changeMarks={props.changeMarks}
                onToggle={() => toggle(mod.id)}
                onStartRename={() => setRenaming(mod.id)}
                onRename={(title) => {
                  setRenaming(null);
                  props.onRenameModule(mod.id, title);
                }}
                onCancelRename={() => setRenaming(null)}
                onDelete={() => props.onDeleteModule(mod)}
                // Only what the course builder made is offered again to it; a hand-made module is the author's.
                onRegenerate={props.onRegenerateModule && mod.generated ? () => props.onRegenerateModule?.(mod) : undefined}
                onAddLesson={() => props.onAddLesson(mod.id)}
                onNewLessonPage={props.onNewLessonPage ? () => props.onNewLessonPage?.(mod.id) : undefined}
                onSelectLesson={props.onSelectLesson}
              />
            ))}
          </PlainList>
        </SortableContext>
      </EditorDndContext>

      {props.notice}
      {props.saveIndicator}
      <Button type="button" $variant="secondary" $size="sm" onClick={props.onImport}>
        {EDITOR_MSG.importLessons}
      </Button>
      {props.onScormImport && (
        <Button type="button" $variant="secondary" $size="sm" onClick={props.onScormImport}>
          {SCORM_IMPORT_MSG.open}
        </Button>
      )}
    </Side>
  );
}

interface SortableModuleProps {
  mod: EditorModule;
  collapsed: boolean;
  renaming: boolean;
  busy: boolean;
  selectedLessonId: string | null;
  changeMarks?: ReadonlyMap<string, ChangeKind>;
  onToggle: () => void;
  onStartRename: () => void;
  onRename: (title: string) => void;
  onCancelRename: () => void;
  onDelete: () => void;
  onRegenerate?: () => void;
  onAddLesson: () => void;
  onNewLessonPage?: () => void;
  onSelectLesson: (id: string) => void;
}

function SortableModule({ mod, collapsed, renaming, busy, selectedLessonId, changeMarks, ...on }: SortableModuleProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: `module:${mod.id}`,
    data: { kind: 'module', moduleId: mod.id, label: mod.title } satisfies DragData,
  });
  const { setNodeRef: setBodyRef, isOver } = useDroppable({
    id: `container:${mod.id}`,
    data: { kind: 'container', moduleId: mod.id, label: mod.title } satisfies DragData,
  });
  const [draft, setDraft] = useState(mod.title);

  return (
    <ModuleItem
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      $dragging={isDragging}
      aria-label={`Модуль «${mod.title}»`}
    >
      <ModuleHead>
        <Handle ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Перетащить модуль «${mod.title}»`}>
          ⠿
        </Handle>
        {renaming ? (
          <Input
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
            aria-label="Название модуля"
            value={draft}
            maxLength={300}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => on.onRename(draft)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') on.onRename(draft);
              if (e.key === 'Escape') {
                setDraft(mod.title);
                on.onCancelRename();
              }
            }}
          />
        ) : (
          <ModuleToggle type="button" aria-expanded={!collapsed} onClick={on.onToggle}>
            <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> {mod.title}
          </ModuleToggle>
        )}
        <ChangeMark kind={changeMarks?.get(mod.id)} />
        <Icon
          type="button"
          aria-label={`Переименовать модуль «${mod.title}»`}
          title="Переименовать"
          onClick={() => {
            setDraft(mod.title);
            on.onStartRename();
          }}
        >
          ✎
        </Icon>
        {on.onRegenerate && (
          <Icon
            type="button"
            aria-label={`Перегенерировать модуль «${mod.title}»`}
            title="Перегенерировать модуль"
            disabled={busy}
            onClick={on.onRegenerate}
          >
            ↻
          </Icon>
        )}
        <Icon type="button" aria-label={`Удалить модуль «${mod.title}»`} title="Удалить модуль" onClick={on.onDelete}>
          ✕
        </Icon>
      </ModuleHead>
      <ModuleBody ref={setBodyRef} $over={isOver}>
        {!collapsed && (
          <SortableContext items={mod.lessons.map((l) => `lesson:${l.id}`)} strategy={verticalListSortingStrategy}>
            <Lessons aria-label={`Уроки модуля «${mod.title}»`}>
              {mod.lessons.length === 0 && <EmptyLessons as="li">Уроков пока нет</EmptyLessons>}
              {mod.lessons.map((lesson) => (
                <SortableLesson
                  key={lesson.id}
                  lesson={lesson}
                  moduleId={mod.id}
                  selected={lesson.id === selectedLessonId}
                  mark={changeMarks?.get(lesson.id)}
                  onSelect={on.onSelectLesson}
                />
              ))}
            </Lessons>
          </SortableContext>
        )}
        {!collapsed && (
          <ModuleActions>
            <Button
              type="button"
              $variant="ghost"
              $size="sm"
              disabled={busy}
              onClick={on.onAddLesson}
              aria-label={`Добавить урок в модуль «${mod.title}»`}
            >
              + Урок
            </Button>
            {on.onNewLessonPage && (
              <Button
                type="button"
                $variant="ghost"
                $size="sm"
                onClick={on.onNewLessonPage}
                aria-label={`Создать урок в отдельном редакторе в модуле «${mod.title}»`}
              >
                Новый урок…
              </Button>
            )}
          </ModuleActions>
        )}
      </ModuleBody>
    </ModuleItem>
  );
}

function SortableLesson({
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
      <Handle ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Перетащить урок «${lesson.title}»`}>
        ⠿
      </Handle>
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

const Side = styled.aside`
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 16px;
  min-width: 0;
  border-right: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  position: sticky;
  top: 0;
  max-height: 100vh;
  overflow-y: auto;
  > button {
    align-self: flex-start;
  }
  /* A long course fills the column, which scrolls: nothing in it shrinks onto its neighbour
     (the save status and its «Повторить» were drawn over «Импорт уроков»). */
  > * {
    flex-shrink: 0;
  }
`;
const CourseTitle = styled.button`
  font: inherit;
  font-size: 18px;
  font-weight: 700;
  text-align: left;
  background: none;
  border: none;
  padding: 0;
  cursor: pointer;
  color: ${({ theme }) => theme.colors.text};
  overflow-wrap: anywhere;
  &[aria-pressed='true'] {
    color: ${({ theme }) => theme.colors.primary};
  }
  &:hover {
    text-decoration: underline;
  }
`;
const Line = styled(Spread).attrs({ $gap: 8, $wrap: false })`
  font-size: 13px;
`;
const ModuleItem = styled.li<{ $dragging: boolean }>`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.bg};
  position: relative;
  opacity: ${({ $dragging }) => ($dragging ? 0.6 : 1)};
  z-index: ${({ $dragging }) => ($dragging ? 2 : 'auto')};
`;
const ModuleHead = styled.div`
  display: flex;
  align-items: center;
  gap: 4px;
  padding: 6px;
  input {
    height: 32px;
  }
`;
const ModuleToggle = styled.button`
  flex: 1;
  min-width: 0;
  text-align: left;
  font: inherit;
  font-weight: 600;
  background: none;
  border: none;
  cursor: pointer;
  padding: 4px;
  color: ${({ theme }) => theme.colors.text};
  overflow-wrap: anywhere;
`;
const ModuleBody = styled.div<{ $over: boolean }>`
  padding: 0 6px 6px;
  min-height: 8px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme, $over }) => ($over ? theme.colors.surfaceAlt : 'transparent')};
`;
const ModuleActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  margin-top: 4px;
`;
const Lessons = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 4px;
`;
const EmptyLessons = styled(Muted)`
  margin: 0;
  padding: 6px 8px;
  font-size: 13px;
`;
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
const Handle = styled.button`
  width: 24px;
  height: 28px;
  flex: none;
  border: none;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: grab;
  font-size: 14px;
  border-radius: 6px;
  touch-action: none;
  &:active {
    cursor: grabbing;
  }
`;
const Icon = styled.button`
  width: 28px;
  height: 28px;
  flex: none;
  border: none;
  background: transparent;
  color: ${({ theme }) => theme.colors.muted};
  cursor: pointer;
  border-radius: 6px;
  &:hover {
    background: ${({ theme }) => theme.colors.surfaceAlt};
    color: ${({ theme }) => theme.colors.text};
  }
`;
