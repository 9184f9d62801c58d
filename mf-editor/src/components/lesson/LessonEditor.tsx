import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  CONTENT_BLOCK_TYPES,
  confirmDeleteBlockText,
  type ContentBlock,
  type ContentBlockType,
  type LessonStatus,
} from '@portal/contracts';
import { Button, Input, Label, Muted, Row } from '@portal/ui';
import {
  BLOCK_TYPE_LABELS,
  addBlock,
  byOrder,
  copyBlock,
  moveBlockTo,
  removeBlock,
  shiftBlock,
  updateBlockContent,
} from '../../model/blocks';
import { ConfirmDialog } from '../Dialog';
import { StatusField } from '../StatusField';
import { BlockCanvas } from './BlockCanvas';
import { BlockProperties } from './BlockProperties';

const ONE_SCORM_PER_LESSON = 'В уроке может быть только один SCORM-пакет';

export interface LessonFields {
  title: string;
  description: string;
  status: LessonStatus;
  blocks: ContentBlock[];
}

interface LessonEditorProps {
  /** The lesson's id, or 'new' before it exists: new blocks carry it. */
  lessonId: string;
  value: LessonFields;
  onChange: (patch: Partial<LessonFields>) => void;
  /** Quizzes made here are written for this course. */
  courseId: string | null;
  /** Buttons of the toolbar given by the screen (previous / next, save, copy, delete). */
  actions?: ReactNode;
  /** Title and status can be hidden (the block-editor demo). */
  showLessonFields?: boolean;
  heading?: ReactNode;
  /** A lesson just added: its name field is focused and selected, to be typed over. */
  focusTitle?: boolean;
}

/**
 * The lesson editor: toolbar, add-block bar, block canvas and block properties.
 * Blocks are selected, moved up and down, copied, deleted and dragged; orders stay 1..n.
 */
export function LessonEditor({
  lessonId,
  value,
  onChange,
  courseId,
  actions,
  showLessonFields = true,
  heading,
  focusTitle = false,
}: LessonEditorProps) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<ContentBlock | null>(null);
  const blocks = byOrder(value.blocks);
  const selected = blocks.find((b) => b.id === selectedId) ?? null;

  const setBlocks = (next: ContentBlock[]) => onChange({ blocks: next });
  const add = (type: ContentBlockType) => {
    const { blocks: next, added } = addBlock(blocks, type, lessonId);
    setBlocks(next);
    setSelectedId(added.id);
  };
  // The block actions are offered only while a block is selected, so the spec's
  // «Выберите блок для …» notices have nothing left to say.
  const shift = (block: ContentBlock, step: -1 | 1) => setBlocks(shiftBlock(blocks, block.id, step));
  const copy = (block: ContentBlock) => {
    const { blocks: next, copy: made } = copyBlock(blocks, block.id);
    setBlocks(next);
    if (made) setSelectedId(made.id);
  };

  return (
    <Editor aria-label="Редактор урока">
      <Toolbar>
        {heading}
        {showLessonFields && (
          <LessonFieldsRow>
            <Label>
              Название урока
              <Input
                value={value.title}
                autoFocus={focusTitle}
                onFocus={focusTitle ? (e) => e.currentTarget.select() : undefined}
                maxLength={300}
                placeholder="Например: Введение"
                onChange={(e) => onChange({ title: e.target.value })}
              />
            </Label>
            <StatusField label="Статус урока" value={value.status} onValue={(status) => onChange({ status })} />
          </LessonFieldsRow>
        )}
        {actions && <Row>{actions}</Row>}
      </Toolbar>

      <Row role="toolbar" aria-label="Добавить блок">
        <Muted as="span">Добавить блок:</Muted>
        {CONTENT_BLOCK_TYPES.map((type) => {
          // A lesson plays one SCO: it is that SCO's lesson, counted when the SCO reports completion.
          const taken = type === 'scorm' && blocks.some((b) => b.type === 'scorm');
          return (
            <Button
              key={type}
              type="button"
              $variant="secondary"
              $size="sm"
              disabled={taken}
              title={taken ? ONE_SCORM_PER_LESSON : undefined}
              onClick={() => add(type)}
            >
              + {BLOCK_TYPE_LABELS[type]}
            </Button>
          );
        })}
      </Row>

      <Body>
        <Canvas aria-label="Холст урока">
          {selected && (
            <Row role="toolbar" aria-label="Действия с блоком">
              <Button type="button" $variant="outline" $size="sm" onClick={() => shift(selected, -1)}>
                ↑ Вверх
              </Button>
              <Button type="button" $variant="outline" $size="sm" onClick={() => shift(selected, 1)}>
                ↓ Вниз
              </Button>
              <Button type="button" $variant="outline" $size="sm" onClick={() => copy(selected)}>
                Копировать блок
              </Button>
              <Button type="button" $variant="outline" $size="sm" onClick={() => setConfirmDelete(selected)}>
                Удалить блок
              </Button>
            </Row>
          )}
          <BlockCanvas
            blocks={blocks}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onMove={(a, o) => setBlocks(moveBlockTo(blocks, a, o))}
          />
        </Canvas>
        <Properties aria-label="Свойства блока">
          {selected ? (
            <BlockProperties
              key={selected.id}
              block={selected}
              courseId={courseId}
              onChange={(content) => setBlocks(updateBlockContent(blocks, selected.id, content))}
            />
          ) : (
            <Muted>Выберите блок, чтобы изменить его свойства</Muted>
          )}
        </Properties>
      </Body>

      {confirmDelete && (
        <ConfirmDialog
          title="Удаление блока"
          message={confirmDeleteBlockText(BLOCK_TYPE_LABELS[confirmDelete.type])}
          confirmLabel="Удалить"
          onCancel={() => setConfirmDelete(null)}
          onConfirm={() => {
            setBlocks(removeBlock(blocks, confirmDelete.id));
            if (selectedId === confirmDelete.id) setSelectedId(null);
            setConfirmDelete(null);
          }}
        />
      )}
    </Editor>
  );
}

// Nothing in the editor may widen the page: every grid track may shrink below its content
// (minmax(0, 1fr), min-width: 0), and long words wrap.
const Editor = styled.section`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  min-width: 0;
  overflow-wrap: anywhere;
`;
const Toolbar = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 12px;
  padding: 16px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const LessonFieldsRow = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) 200px;
  gap: 12px;
  @media (max-width: 720px) {
    grid-template-columns: 1fr;
  }
`;
const Body = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) 340px;
  gap: 16px;
  align-items: start;
  @media (max-width: 1000px) {
    grid-template-columns: 1fr;
  }
`;
const Canvas = styled.section`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 12px;
  min-width: 0;
`;
const Properties = styled.aside`
  min-width: 0;
  padding: 16px;
  border-radius: ${({ theme }) => theme.radius};
  position: sticky;
  top: 16px;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  p {
    margin: 0;
  }
`;
