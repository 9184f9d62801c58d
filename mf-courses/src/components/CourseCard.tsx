import styled, { css } from 'styled-components';
import { CONTENT_MSG, lessonsLabel, updatedLabel, type CourseSummary } from '@portal/contracts';
import { Button, Card } from '@portal/ui';
import type { ViewMode } from '../hooks/useViewMode';
import { CopyIcon, HeartIcon, TrashIcon } from './Icons';
import { StatusIcon } from './StatusIcon';

interface CourseCardProps {
  course: CourseSummary;
  view: ViewMode;
  /** The person reads the course as its authors do (contracts' canReadCourseAsAuthor): copy is offered. */
  canAuthor: boolean;
  /** The course is theirs to change (contracts' canEditCourse): delete is offered. */
  canEdit: boolean;
  favoriteBusy: boolean;
  copyBusy: boolean;
  onOpen: (course: CourseSummary) => void;
  onToggleFavorite: (course: CourseSummary) => void;
  onCopy: (course: CourseSummary) => void;
  onDelete: (course: CourseSummary) => void;
}

/** One course in the list: the same facts in a grid tile or a list row. */
export function CourseCard({
  course,
  view,
  canAuthor,
  canEdit,
  favoriteBusy,
  copyBusy,
  onOpen,
  onToggleFavorite,
  onCopy,
  onDelete,
}: CourseCardProps) {
  const titleId = `course-title-${course.id}`;
  return (
    <Tile as="article" $view={view} aria-labelledby={titleId} data-testid="course-card">
      <Head>
        <StatusIcon status={course.status} />
        <Title id={titleId}>
          <TitleLink type="button" onClick={() => onOpen(course)}>
            {course.title}
          </TitleLink>
        </Title>
        <Heart
          type="button"
          $variant="ghost"
          $size="icon"
          $on={course.isFavorite}
          aria-pressed={course.isFavorite}
          aria-label={course.isFavorite ? 'Убрать из избранного' : 'Добавить в избранное'}
          title={course.isFavorite ? 'Убрать из избранного' : 'Добавить в избранное'}
          disabled={favoriteBusy}
          onClick={() => onToggleFavorite(course)}
        >
          <HeartIcon filled={course.isFavorite} />
        </Heart>
      </Head>
      <Description $view={view}>{course.description}</Description>
      <Meta>
        <span>{updatedLabel(course.updatedAt)}</span>
        <span aria-hidden="true">·</span>
        <span>{lessonsLabel(course.lessonsCount)}</span>
        {course.archived && (
          <>
            <span aria-hidden="true">·</span>
            <span data-testid="course-archived">В архиве</span>
          </>
        )}
      </Meta>
      <Actions>
        <Button type="button" $size="sm" onClick={() => onOpen(course)} aria-describedby={titleId}>
          {CONTENT_MSG.open}
        </Button>
        {canAuthor && (
          <>
            <Button
              type="button"
              $variant="outline"
              $size="icon"
              aria-label="Копировать курс"
              title="Копировать курс"
              disabled={copyBusy}
              onClick={() => onCopy(course)}
            >
              <CopyIcon />
            </Button>
            {canEdit && (
              <Danger
                type="button"
                $variant="outline"
                $size="icon"
                aria-label="Удалить курс"
                title="Удалить курс"
                onClick={() => onDelete(course)}
              >
                <TrashIcon />
              </Danger>
            )}
          </>
        )}
      </Actions>
    </Tile>
  );
}

const Tile = styled(Card)<{ $view: ViewMode }>`
  display: grid;
  gap: 12px;
  padding: 20px;
  min-width: 0;
  ${({ $view }) =>
    $view === 'grid'
      ? css`
          height: 380px;
          grid-template-rows: auto 1fr auto auto;
          grid-template-areas: 'head' 'desc' 'meta' 'actions';
        `
      : css`
          grid-template-columns: minmax(0, 1fr) auto;
          grid-template-areas: 'head head' 'desc actions' 'meta actions';
          align-items: center;
          gap: 8px 16px;
        `}
`;
const Head = styled.div`
  grid-area: head;
  display: flex;
  align-items: flex-start;
  gap: 8px;
  min-width: 0;
`;
const Title = styled.h3`
  flex: 1;
  margin: 0;
  font-size: 18px;
  line-height: 1.35;
  min-width: 0;
  overflow-wrap: anywhere;
`;
const TitleLink = styled.button`
  all: unset;
  cursor: pointer;
  border-radius: 4px;
  &:hover {
    text-decoration: underline;
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;
const Heart = styled(Button)<{ $on: boolean }>`
  flex: none;
  height: 32px;
  width: 32px;
  margin: -4px -6px 0 0;
  color: ${({ theme, $on }) => ($on ? theme.colors.danger : theme.colors.muted)};
`;
const Description = styled.p<{ $view: ViewMode }>`
  grid-area: desc;
  margin: 0;
  color: ${({ theme }) => theme.colors.muted};
  overflow: hidden;
  overflow-wrap: anywhere;
  display: -webkit-box;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: ${({ $view }) => ($view === 'grid' ? 8 : 2)};
  &:empty {
    display: none;
  }
`;
const Meta = styled.div`
  grid-area: meta;
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Actions = styled.div`
  grid-area: actions;
  display: flex;
  align-items: center;
  gap: 8px;
  button[aria-label] {
    height: 32px;
    width: 32px;
  }
`;
const Danger = styled(Button)`
  color: ${({ theme }) => theme.colors.danger};
`;
