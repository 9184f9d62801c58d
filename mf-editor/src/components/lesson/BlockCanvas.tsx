import { closestCenter, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import styled from 'styled-components';
import type { ContentBlock } from '@portal/contracts';
import { DragHandle, PlainList } from '@portal/ui';
import { EditorDndContext } from '../dnd';
import { BLOCK_TYPE_LABELS, blockPreview } from '../../model/blocks';
import { useQuizzesOf } from '../quiz/useQuizzesOf';

interface BlockCanvasProps {
  blocks: ContentBlock[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onMove: (activeId: string, overId: string) => void;
}

/** The lesson's blocks in order: click to select, drag by the handle (mouse, touch or keyboard) to reorder. */
export function BlockCanvas({ blocks, selectedId, onSelect, onMove }: BlockCanvasProps) {
  const quizzes = useQuizzesOf(blocks);
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  if (!blocks.length) return <Empty>Блоков пока нет. Добавьте первый блок кнопками выше.</Empty>;
  return (
    <EditorDndContext collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
      <SortableContext items={blocks.map((b) => b.id)} strategy={verticalListSortingStrategy}>
        <PlainList as="ol" aria-label="Блоки урока">
          {blocks.map((block) => (
            <SortableBlock
              key={block.id}
              block={block}
              preview={blockPreview(block, quizzes)}
              selected={block.id === selectedId}
              onSelect={onSelect}
            />
          ))}
        </PlainList>
      </SortableContext>
    </EditorDndContext>
  );
}

function SortableBlock({
  block,
  preview,
  selected,
  onSelect,
}: {
  block: ContentBlock;
  preview: string;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  const label = `${BLOCK_TYPE_LABELS[block.type]} №${block.order}`;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
    data: { label },
  });
  return (
    <Item
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      $dragging={isDragging}
      data-block-type={block.type}
    >
      <DragHandle
        $framed
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Перетащить блок «${label}»`}
        title="Перетащить"
      >
        ⠿
      </DragHandle>
      <Select
        type="button"
        aria-pressed={selected}
        aria-label={`${label}: ${preview}`}
        $selected={selected}
        onClick={() => onSelect(block.id)}
      >
        <Meta>
          <strong>{BLOCK_TYPE_LABELS[block.type]}</strong>
          <span>№{block.order}</span>
        </Meta>
        <Preview title={preview}>{preview}</Preview>
      </Select>
    </Item>
  );
}

const Item = styled.li<{ $dragging: boolean }>`
  display: flex;
  min-width: 0;
  align-items: stretch;
  gap: 4px;
  position: relative;
  opacity: ${({ $dragging }) => ($dragging ? 0.6 : 1)};
  z-index: ${({ $dragging }) => ($dragging ? 2 : 'auto')};
`;
const Select = styled.button<{ $selected: boolean }>`
  flex: 1;
  min-width: 0;
  text-align: left;
  font: inherit;
  cursor: pointer;
  padding: 12px 14px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme, $selected }) => ($selected ? theme.colors.surfaceAlt : theme.colors.surface)};
  border: 1px solid ${({ theme, $selected }) => ($selected ? theme.colors.primary : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: ${({ theme, $selected }) => ($selected ? `0 0 0 1px ${theme.colors.primary}` : 'none')};
`;
const Meta = styled.span`
  display: flex;
  gap: 10px;
  font-size: 12px;
  color: ${({ theme }) => theme.colors.muted};
  text-transform: uppercase;
  letter-spacing: 0.03em;
  strong {
    color: ${({ theme }) => theme.colors.text};
  }
`;
// Two lines at most, wrapped anywhere (a file's long name too): a phone's narrow block shows the start
// of the text in its box, and the title gives the rest.
const Preview = styled.span`
  display: -webkit-box;
  margin-top: 4px;
  overflow: hidden;
  overflow-wrap: anywhere;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 2;
`;
const Empty = styled.p`
  margin: 0;
  padding: 32px 16px;
  text-align: center;
  color: ${({ theme }) => theme.colors.muted};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
`;
