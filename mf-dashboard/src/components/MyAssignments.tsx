import type { MouseEvent } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { Card, Muted, PlainList } from '@portal/ui';
import { navigate, paths } from '@portal/web-core';
import { assignmentKeys, daysLeftText, fetchMyAssignments, formatDay } from '@portal/web-core/assignments';

/** How many of the nearest due assignments the card shows. */
const SHOWN = 5;

/** The learner's assignments, the earliest due first; overdue ones in red (docs/decisions/076). */
export function MyAssignments() {
  const list = useQuery({
    queryKey: assignmentKeys.mine(1),
    queryFn: ({ signal }) => fetchMyAssignments({ page: 1, limit: SHOWN }, signal),
  });
  const open = (courseId: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(paths.student(courseId));
  };
  return (
    <Section aria-labelledby="dashboard-assignments" data-testid="my-assignments">
      <h2 id="dashboard-assignments">Мои назначения</h2>
      {list.isPending ? (
        <Muted>Загрузка...</Muted>
      ) : list.isError ? (
        <Muted role="alert">Не удалось загрузить назначения</Muted>
      ) : !list.data.data.length ? (
        <Muted>Назначенного обучения нет</Muted>
      ) : (
        <PlainList $gap={12}>
          {list.data.data.map((a) => (
            <Item key={a.assignmentId} $overdue={a.status === 'overdue'} data-testid="assignment-item" data-status={a.status}>
              <a href={paths.student(a.courseId)} onClick={open(a.courseId)}>
                {a.courseTitle}
              </a>
              {a.mandatory && <Tag>обязательное</Tag>}
              <Due>
                срок {formatDay(a.dueDate)} · <strong>{daysLeftText(a)}</strong>
              </Due>
              {a.message && <Muted>{a.message}</Muted>}
            </Item>
          ))}
        </PlainList>
      )}
      {list.data && list.data.total > SHOWN && (
        <Muted>
          Ещё {list.data.total - SHOWN} —{' '}
          <a
            href={`${paths.courses()}?filter=assigned`}
            onClick={(e) => {
              e.preventDefault();
              navigate(`${paths.courses()}?filter=assigned`);
            }}
          >
            все назначения
          </a>
        </Muted>
      )}
    </Section>
  );
}

const Section = styled(Card).attrs({ as: 'section' })`
  margin-bottom: 24px;
  h2 {
    margin: 0 0 16px;
    font-size: 18px;
  }
`;

const Item = styled.li<{ $overdue: boolean }>`
  display: grid;
  gap: 4px;
  padding-left: 12px;
  border-left: 3px solid ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.border)};
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
  a {
    color: inherit;
    font-weight: 600;
  }
  p {
    margin: 0;
  }
`;

const Tag = styled.span`
  font-size: 12px;
  opacity: 0.8;
`;

const Due = styled.span`
  font-size: 14px;
`;
