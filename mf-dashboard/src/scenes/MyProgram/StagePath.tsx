import styled, { css } from 'styled-components';
import type { StageCourseProgress, StageProgress, StageStatus } from '@portal/contracts';
import { Badge, Muted, PlainList, ProgressBar, pathIcon } from '@portal/ui';
import { paths } from '@portal/web-core';
import { AppLink } from './AppLink';
import { STAGE_STATUS_TONES, stageCountText, stageDueText, stageStatusText } from './stageText';
import { ProgressLine } from '../../components/programs/layout';

/** A padlock: a stage closed until the one before it is complete. */
const LockIcon = pathIcon('M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4');

/**
 * A program's stages as a vertical path: numbered steps joined by a line, each with its status, its
 * deadline, how many of its courses are done and the courses themselves. An ordered list, since the
 * order is the program's; each step is named «Этап N: <title>, <status>» for a screen reader.
 */
export function StagePath({ stages }: { stages: readonly StageProgress[] }) {
  return (
    <Path aria-label="Этапы программы">
      {stages.map((stage, index) => {
        const status = stageStatusText(stage);
        return (
          <Step
            key={stage.key}
            $status={stage.status}
            aria-label={`Этап ${index + 1}: ${stage.title}, ${status}`}
            data-testid="program-stage"
            data-status={stage.status}
          >
            <Marker $status={stage.status} aria-hidden="true">
              {stage.status === 'completed' ? '✓' : index + 1}
            </Marker>
            <Body>
              <StageHead>
                <h3>{stage.title}</h3>
                <Badge $tone={STAGE_STATUS_TONES[stage.status]}>
                  {stage.status === 'locked' && <LockIcon />}
                  {status}
                </Badge>
              </StageHead>
              <Due $overdue={stage.status === 'overdue'}>{stageDueText(stage)}</Due>
              <Count>{stageCountText(stage)}</Count>
              <PlainList $gap={12} aria-label={`Курсы этапа «${stage.title}»`}>
                {stage.courses.map((course) => (
                  <StageCourse key={course.courseId} course={course} open={stage.status !== 'locked'} />
                ))}
              </PlainList>
            </Body>
          </Step>
        );
      })}
    </Path>
  );
}

/** One course of a stage: its progress, and «Открыть курс» unless the stage is closed. */
function StageCourse({ course, open }: { course: StageCourseProgress; open: boolean }) {
  const percent = Math.max(0, Math.min(100, Math.round(course.percent)));
  return (
    <CourseRow data-testid="stage-course">
      <CourseTitle>
        {course.title}
        {course.completed && <Done> · пройден</Done>}
      </CourseTitle>
      <ProgressLine as="span">
        <ProgressBar
          name={`Курс «${course.title}»`}
          value={percent}
          valueText={`${percent}%`}
          size="sm"
          tone={course.completed ? 'success' : 'primary'}
        />
        {/* The bar's own text says it to a screen reader. */}
        <span aria-hidden="true">{percent}%</span>
      </ProgressLine>
      {open ? (
        <AppLink href={paths.student(course.courseId)} aria-label={`Открыть курс «${course.title}»`}>
          Открыть курс
        </AppLink>
      ) : (
        <Closed>закрыт</Closed>
      )}
    </CourseRow>
  );
}

const MARKER = 32;

const Path = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: minmax(0, 1fr);
`;

const Step = styled.li<{ $status: StageStatus }>`
  position: relative;
  padding: 0 0 28px ${MARKER + 16}px;
  min-width: 0;
  /* The line to the next step: solid from a completed stage, dashed from the others. */
  &::before {
    content: '';
    position: absolute;
    left: ${MARKER / 2 - 1}px;
    top: ${MARKER + 4}px;
    bottom: 4px;
    border-left: 2px ${({ $status }) => ($status === 'completed' ? 'solid' : 'dashed')}
      ${({ theme, $status }) => ($status === 'completed' ? theme.colors.success : theme.colors.border)};
  }
  &:last-child {
    padding-bottom: 0;
  }
  &:last-child::before {
    display: none;
  }
  @media (max-width: 480px) {
    padding-left: ${MARKER + 10}px;
  }
`;

const markerColors = css<{ $status: StageStatus }>`
  ${({ theme, $status }) =>
    $status === 'completed'
      ? `background: ${theme.colors.success}; border-color: ${theme.colors.success}; color: ${theme.colors.surface};`
      : $status === 'overdue'
        ? `border-color: ${theme.colors.danger}; color: ${theme.colors.danger};`
        : $status === 'in_progress'
          ? `border-color: ${theme.colors.primary}; color: ${theme.colors.primary};`
          : `border-color: ${theme.colors.border}; color: ${theme.colors.muted};`}
`;

const Marker = styled.span<{ $status: StageStatus }>`
  position: absolute;
  left: 0;
  top: 0;
  width: ${MARKER}px;
  height: ${MARKER}px;
  display: grid;
  place-items: center;
  border-radius: 50%;
  border: 2px solid;
  background: ${({ theme }) => theme.colors.surface};
  font-weight: 700;
  font-size: 14px;
  ${markerColors}
`;

const Body = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
  p {
    margin: 0;
  }
`;

const StageHead = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  min-height: ${MARKER}px;
  h3 {
    margin: 0;
    font-size: 17px;
    overflow-wrap: anywhere;
  }
  /* A long «закрыт до завершения этапа «…»» wraps inside its badge on a phone. */
  ${Badge} {
    white-space: normal;
    flex-shrink: 1;
  }
`;

const Due = styled.p<{ $overdue: boolean }>`
  font-size: 14px;
  color: ${({ theme, $overdue }) => ($overdue ? theme.colors.danger : theme.colors.text)};
  font-weight: ${({ $overdue }) => ($overdue ? 600 : 400)};
`;

const Count = styled(Muted)`
  font-size: 14px;
`;

const CourseRow = styled.li`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(120px, 180px) auto;
  align-items: center;
  gap: 6px 16px;
  padding: 10px 12px;
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  a {
    font-weight: 600;
    white-space: nowrap;
  }
  @media (max-width: 560px) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const CourseTitle = styled.span`
  overflow-wrap: anywhere;
`;

const Done = styled.span`
  color: ${({ theme }) => theme.colors.success};
  font-size: 14px;
`;

const Closed = styled.span`
  font-size: 14px;
  color: ${({ theme }) => theme.colors.muted};
`;
