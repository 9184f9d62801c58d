import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { EDITOR_MSG, type ChangeKind } from '@portal/contracts';
import { Button, EyeIcon, Muted, PlainList, Spread, StatusBadge } from '@portal/ui';
import { EditorDndContext } from '../../components/dnd';
import { countBlocks, type EditorCourse, type EditorModule } from '../../model/structure';
import { SCORM_IMPORT_MSG } from './ScormImportDialog';
import { collision, useStructureDrag } from './sidebar/dnd';
import { SortableModule } from './sidebar/SortableModule';
import type { StructureMoves } from './state/useMoves';

interface SidebarProps extends StructureMoves {
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
}

/** The course editor's left side: the course, its structure (dragged to reorder), saving and import. */
export function Sidebar(props: SidebarProps) {
  const { course, selectedLessonId, busy } = props;
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [renaming, setRenaming] = useState<string | null>(null);
  const drag = useStructureDrag(course, props);

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
        onDragStart={drag.onDragStart}
        onDragOver={drag.onDragOver}
        onDragEnd={drag.onDragEnd}
        onDragCancel={drag.onDragCancel}
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
