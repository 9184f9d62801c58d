import styled from 'styled-components';
import { EDITOR_MSG } from '@portal/contracts';
import { Button, Muted } from '@portal/ui';
import { BLOCK_TYPE_LABELS, blockPreview, byOrder } from '../../model/blocks';
import type { EditorLesson } from '../../model/structure';
import { useQuizzesOf } from '../../components/quiz/useQuizzesOf';

/** The selected lesson's blocks by order, with type, order and a preview. */
export function BlocksPanel({ lesson, onClose }: { lesson: EditorLesson; onClose: () => void }) {
  const blocks = byOrder(lesson.blocks);
  const quizzes = useQuizzesOf(blocks);
  return (
    <Box aria-label="Панель блоков">
      <Head>
        <h1>Блоки урока «{lesson.title}»</h1>
        <Button type="button" $variant="outline" onClick={onClose}>
          {EDITOR_MSG.closeBlocksPanel}
        </Button>
      </Head>
      {blocks.length === 0 ? (
        <Muted>В уроке пока нет блоков</Muted>
      ) : (
        <Table>
          <thead>
            <tr>
              <th scope="col">Порядок</th>
              <th scope="col">Тип</th>
              <th scope="col">Содержимое</th>
            </tr>
          </thead>
          <tbody>
            {blocks.map((b) => (
              <tr key={b.id}>
                <td>{b.order}</td>
                <td>{BLOCK_TYPE_LABELS[b.type]}</td>
                <td>{blockPreview(b, quizzes)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Box>
  );
}

const Box = styled.section`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  min-width: 0;
  gap: 16px;
`;
const Head = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  flex-wrap: wrap;
  h1 {
    margin: 0;
    font-size: 22px;
    overflow-wrap: anywhere;
  }
`;
const Table = styled.table`
  width: 100%;
  table-layout: fixed;
  border-collapse: collapse;
  background: ${({ theme }) => theme.colors.surface};
  th,
  td {
    text-align: left;
    padding: 10px 12px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    vertical-align: top;
  }
  th:nth-child(-n + 2) {
    width: 120px;
  }
  td:last-child {
    overflow-wrap: anywhere;
  }
  th {
    font-size: 13px;
    color: ${({ theme }) => theme.colors.muted};
    font-weight: 600;
  }
`;
