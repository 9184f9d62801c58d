import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import type { Certificate, Page } from '@portal/contracts';
import { Button, Muted, Pager } from '@portal/ui';
import { apiRequest, errorMessage } from '@portal/web-core';
import { downloadCertificate } from '@portal/web-core/assignments';

const PAGE_SIZE = 10;

/**
 * The learner's certificates on /results, each downloadable. Opened from the header («Сертификаты»,
 * `?section=certificates`) it is shown even while empty, brought into view and focused.
 */
export function MyCertificates({ opened = false }: { opened?: boolean }) {
  const [page, setPage] = useState(1);
  const heading = useRef<HTMLHeadingElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['certificates', 'my', page],
    queryFn: ({ signal }) => apiRequest<Page<Certificate>>('/certificates/my', { query: { page, limit: PAGE_SIZE }, signal }),
  });
  const loaded = !!list.data;
  useEffect(() => {
    if (!opened || !loaded) return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [opened, loaded]);
  if (!list.data || (!list.data.total && !opened)) return null;
  return (
    <Section aria-labelledby="my-certificates">
      <h2 id="my-certificates" ref={heading} tabIndex={-1}>
        Мои сертификаты
      </h2>
      {!list.data.total && <Muted>Сертификатов пока нет: он выдаётся, когда курс пройден целиком.</Muted>}
      <ul>
        {list.data.data.map((c) => (
          <li key={c.number}>
            <span>
              «{c.courseTitle}» · № {c.number} · {new Date(c.completedAt).toLocaleDateString('ru-RU')}
            </span>
            <Button
              type="button"
              $variant="outline"
              $size="sm"
              aria-label={`Скачать сертификат ${c.number}`}
              onClick={() => downloadCertificate(c.number).catch((err: unknown) => setProblem(errorMessage(err)))}
            >
              Скачать PDF
            </Button>
          </li>
        ))}
      </ul>
      {problem && <Muted role="alert">{problem}</Muted>}
      <Pager of={list.data} onPage={setPage} />
    </Section>
  );
}

const Section = styled.section`
  margin: 16px 0 24px;
  ul {
    list-style: none;
    padding: 0;
    margin: 0;
    display: grid;
    gap: 8px;
  }
  li {
    display: flex;
    gap: 12px;
    align-items: center;
    justify-content: space-between;
  }
`;
