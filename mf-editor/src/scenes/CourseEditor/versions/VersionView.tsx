import { useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { contentBlocksOf } from '@portal/contracts';
import { Button, Loading, LoadError, Muted, PlainList } from '@portal/ui';
import { versionsKey } from '../../../api/versions';
import { BLOCK_TYPE_LABELS, blockPreview, byOrder } from '../../../model/blocks';
import { VERSIONS_UI, formatWhen, versionTitle } from './texts';
import { useVersionsApi } from './useVersions';

/**
 * A published version read-only, as learners saw it: its modules and lessons; a lesson chosen shows
 * its blocks. A version never changes, so what was read is kept.
 */
export function VersionView({ courseId, number }: { courseId: string; number: number }) {
  const api = useVersionsApi();
  const [lesson, setLesson] = useState<{ id: string; title: string } | null>(null);
  const outline = useQuery({
    queryKey: [...versionsKey(courseId), 'outline', number],
    queryFn: ({ signal }) => api.outline(courseId, number, signal),
    staleTime: Infinity,
  });
  if (outline.isPending) return <Loading label={VERSIONS_UI.outlineLoading} />;
  if (outline.isError) {
    return <LoadError title={VERSIONS_UI.outlineFailed} error={outline.error} onRetry={() => void outline.refetch()} />;
  }
  if (lesson) {
    return (
      <Box aria-label={`Урок «${lesson.title}», ${versionTitle(number).toLowerCase()}`}>
        <div>
          <Button type="button" $variant="link" onClick={() => setLesson(null)}>
            ← К структуре версии {number}
          </Button>
        </div>
        <h3>{lesson.title}</h3>
        <VersionLesson courseId={courseId} number={number} lessonId={lesson.id} />
      </Box>
    );
  }
  const { data } = outline;
  return (
    <Box aria-label={versionTitle(number)}>
      <h3>
        {versionTitle(number)} · {formatWhen(data.publishedAt)}
      </h3>
      {data.summary && <p>{data.summary}</p>}
      <Muted>{VERSIONS_UI.readOnly}</Muted>
      <PlainList $gap={12} aria-label={`Модули версии ${number}`}>
        {data.modules.map((mod) => (
          <li key={mod.id}>
            <h4>{mod.title}</h4>
            <PlainList $gap={2} aria-label={`Уроки модуля «${mod.title}»`}>
              {mod.lessons.map((l) => (
                <li key={l.id}>
                  <Button type="button" $variant="link" onClick={() => setLesson({ id: l.id, title: l.title })}>
                    {l.title}
                  </Button>{' '}
                  <Muted as="span">
                    · блоков: {l.blocksCount}
                    {l.hasQuiz && ' · есть квиз'}
                  </Muted>
                </li>
              ))}
            </PlainList>
          </li>
        ))}
      </PlainList>
    </Box>
  );
}

/** A lesson of a version: its blocks in order, each by type and a short preview (nothing can be edited). */
function VersionLesson({ courseId, number, lessonId }: { courseId: string; number: number; lessonId: string }) {
  const api = useVersionsApi();
  const record = useQuery({
    queryKey: [...versionsKey(courseId), 'lesson', number, lessonId],
    queryFn: ({ signal }) => api.lesson(courseId, number, lessonId, signal),
    staleTime: Infinity,
  });
  if (record.isPending) return <Loading label={VERSIONS_UI.lessonLoading} />;
  if (record.isError) {
    return <LoadError title={VERSIONS_UI.lessonFailed} error={record.error} onRetry={() => void record.refetch()} />;
  }
  const blocks = byOrder(contentBlocksOf(record.data));
  if (blocks.length === 0) return <Muted>В уроке нет блоков</Muted>;
  return (
    <PlainList $gap={8} aria-label="Блоки урока">
      {blocks.map((b) => (
        <BlockItem key={b.id}>
          <Muted as="span">{BLOCK_TYPE_LABELS[b.type]}</Muted>
          <span>{blockPreview(b)}</span>
        </BlockItem>
      ))}
    </PlainList>
  );
}

const Box = styled.section`
  display: grid;
  gap: 12px;
  h3,
  h4,
  p {
    margin: 0;
  }
  h3 {
    font-size: 16px;
  }
  h4 {
    font-size: 14px;
    margin-bottom: 4px;
  }
`;
const BlockItem = styled.li`
  display: grid;
  grid-template-columns: 120px minmax(0, 1fr);
  gap: 12px;
  padding: 8px 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  span:last-child {
    overflow-wrap: anywhere;
    white-space: pre-wrap;
  }
`;
