import type { MouseEvent } from 'react';
import styled from 'styled-components';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ASSIGNMENT_STATUS_LABELS } from '@portal/contracts';
import { Muted, PagedList, PlainList } from '@portal/ui';
import { navigate, paths } from '@portal/web-core';
import { assignmentKeys, daysLeftText, fetchMyAssignments, formatDay } from '@portal/web-core/assignments';

const PAGE_SIZE = 20;

/** «Мои назначения» on /courses: the learner's assignments, the earliest due first, overdue in red. */
export function AssignedCourses({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const list = useQuery({
    queryKey: assignmentKeys.mine(page),
    queryFn: ({ signal }) => fetchMyAssignments({ page, limit: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const open = (courseId: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(paths.student(courseId));
  };
  return (
    <PagedList
      query={list}
      failed="Не удалось загрузить назначения"
      empty={<Muted>Назначенного обучения нет</Muted>}
      onPage={onPage}
    >
      {(rows) => (
        <PlainList $gap={12} aria-label="Мои назначения">
          {rows.map((a) => (
            <Item key={a.assignmentId} $overdue={a.status === 'overdue'} data-testid="assigned-course">
              <a href={paths.student(a.courseId)} onClick={open(a.courseId)}>
                {a.courseTitle}
              </a>
              <span>
                {ASSIGNMENT_STATUS_LABELS[a.status]} · срок {formatDay(a.dueDate)}
                {a.status !== 'completed' && ` · ${daysLeftText(a)}`}
                {a.mandatory ? ' · обязательное' : ''}
              </span>
            </Item>
          ))}
        </PlainList>
      )}
    </PagedList>
  );
}

const Item = styled.li<{ $overdue: boolean }>`
  display: grid;
  gap: 4px;
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.border)};
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : 'inherit')};
  a {
    color: inherit;
    font-weight: 600;
  }
`;
