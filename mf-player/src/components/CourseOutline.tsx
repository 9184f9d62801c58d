import styled from 'styled-components';
import { PROGRESS_MSG, lessonsLabel, type CourseOutline as Outline, type CourseProgress } from '@portal/contracts';
import { Button, ProgressBar } from '@portal/ui';
import { LessonStateBadge, StatusBadge, lessonStateOf } from './Badges';

interface CourseOutlineProps {
  course: Outline;
  progress: CourseProgress | undefined;
  completed: ReadonlySet<string>;
  selectedLessonId: string | null;
  /** Staff (previewing) see each lesson's publication status; learners their own state. */
  showStatus: boolean;
  onSelect: (lessonId: string) => void;
  onBack: () => void;
}

/** The left panel of study mode: back, title, 'Режим обучения', progress, modules and lessons. */
export function CourseOutline({
  course,
  progress,
  completed,
  selectedLessonId,
  showStatus,
  onSelect,
  onBack,
}: CourseOutlineProps) {
  const total = course.modules.reduce((n, m) => n + m.lessons.length, 0);
  const done = course.modules.reduce((n, m) => n + m.lessons.filter((l) => completed.has(l.id)).length, 0);
  // Completed over all lessons, over 1 when there are none, as the progress answer's `percentage`.
  const percent = Math.round((done / Math.max(total, 1)) * 100);
  return (
    <Panel aria-label="Содержание курса">
      <Button type="button" $variant="ghost" $size="sm" onClick={onBack}>
        ← {PROGRESS_MSG.back}
      </Button>
      <div>
        <CourseTitle>{course.title}</CourseTitle>
        <Label>{PROGRESS_MSG.studyMode}</Label>
      </div>
      <Progress>
        <span>
          {PROGRESS_MSG.progress}: {done} из {total} · {percent}%
        </span>
        <ProgressBar
          value={percent}
          name={PROGRESS_MSG.progress}
          tone={progress?.isCompleted || (total > 0 && done === total) ? 'success' : 'primary'}
        />
      </Progress>
      {total === 0 && course.modules.length === 0 && <Hint>{PROGRESS_MSG.noLessons}</Hint>}
      <Modules>
        {course.modules.map((m) => {
          const moduleDone = m.lessons.length > 0 && m.lessons.every((l) => completed.has(l.id));
          return (
            <li key={m.id}>
              <ModuleTitle>
                {moduleDone && <Tick aria-label="Модуль пройден">✓</Tick>} {m.title}
                <small>{lessonsLabel(m.lessons.length)}</small>
              </ModuleTitle>
              <Lessons>
                {m.lessons.map((l) => {
                  const isDone = completed.has(l.id);
                  return (
                    <li key={l.id}>
                      <LessonButton
                        type="button"
                        aria-current={l.id === selectedLessonId ? 'page' : undefined}
                        $active={l.id === selectedLessonId}
                        onClick={() => onSelect(l.id)}
                      >
                        <Tick aria-label={isDone ? PROGRESS_MSG.lessonCompleted : undefined} aria-hidden={!isDone} $on={isDone}>
                          {isDone ? '✓' : '○'}
                        </Tick>
                        <span>{l.title}</span>
                        {showStatus ? (
                          <StatusBadge status={l.status} />
                        ) : (
                          <LessonStateBadge state={lessonStateOf(l.id, completed, progress)} />
                        )}
                      </LessonButton>
                    </li>
                  );
                })}
              </Lessons>
            </li>
          );
        })}
      </Modules>
    </Panel>
  );
}

const Panel = styled.nav`
  display: grid;
  align-content: start;
  gap: 16px;
  padding: 20px;
  min-width: 0;
  background: ${({ theme }) => theme.colors.surface};
  border-right: 1px solid ${({ theme }) => theme.colors.border};
  > button {
    justify-self: start;
  }
`;
const CourseTitle = styled.h1`
  margin: 0;
  font-size: 20px;
  overflow-wrap: anywhere;
`;
const Label = styled.span`
  font-size: 13px;
  font-weight: 600;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${({ theme }) => theme.colors.primary};
`;
const Progress = styled.div`
  display: grid;
  gap: 6px;
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
const Hint = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.muted};
`;
const Modules = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 16px;
`;
const ModuleTitle = styled.h2`
  display: flex;
  align-items: baseline;
  gap: 6px;
  margin: 0 0 6px;
  font-size: 15px;
  small {
    margin-left: auto;
    font-weight: 400;
    color: ${({ theme }) => theme.colors.muted};
    white-space: nowrap;
  }
`;
const Lessons = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 4px;
`;
const LessonButton = styled.button<{ $active: boolean }>`
  width: 100%;
  display: grid;
  grid-template-columns: auto 1fr auto;
  align-items: center;
  gap: 8px;
  padding: 8px 10px;
  font: inherit;
  font-size: 14px;
  text-align: left;
  cursor: pointer;
  color: inherit;
  border: 1px solid ${({ theme, $active }) => ($active ? theme.colors.primary : 'transparent')};
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme, $active }) => ($active ? theme.colors.surfaceAlt : 'transparent')};
  &:hover {
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
  span {
    overflow-wrap: anywhere;
  }
`;
const Tick = styled.span<{ $on?: boolean }>`
  font-weight: 700;
  color: ${({ theme, $on = true }) => ($on ? theme.colors.success : theme.colors.muted)};
`;
