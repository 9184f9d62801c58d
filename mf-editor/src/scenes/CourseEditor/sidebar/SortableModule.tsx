import { useState } from 'react';
import styled from 'styled-components';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ChangeKind } from '@portal/contracts';
import { Button, DragHandle, IconButton, Input, Muted } from '@portal/ui';
import type { EditorModule } from '../../../model/structure';
import { ChangeMark } from '../versions/ChangeMark';
import type { DragData } from './dnd';
import { SortableLesson } from './SortableLesson';

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

/** A module of the structure: renamed in place, collapsed, dragged by its handle; its lessons sort inside it. */
export function SortableModule({ mod, collapsed, renaming, busy, selectedLessonId, changeMarks, ...on }: SortableModuleProps) {
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
        <DragHandle ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Перетащить модуль «${mod.title}»`}>
          ⠿
        </DragHandle>
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
        <IconButton
          type="button"
          aria-label={`Переименовать модуль «${mod.title}»`}
          title="Переименовать"
          onClick={() => {
            setDraft(mod.title);
            on.onStartRename();
          }}
        >
          ✎
        </IconButton>
        {on.onRegenerate && (
          <IconButton
            type="button"
            aria-label={`Перегенерировать модуль «${mod.title}»`}
            title="Перегенерировать модуль"
            disabled={busy}
            onClick={on.onRegenerate}
          >
            ↻
          </IconButton>
        )}
        <IconButton type="button" aria-label={`Удалить модуль «${mod.title}»`} title="Удалить модуль" onClick={on.onDelete}>
          ✕
        </IconButton>
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
