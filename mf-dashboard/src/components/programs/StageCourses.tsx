import { useState } from 'react';
import styled from 'styled-components';
import { MAX_STAGE_COURSES, type ProgramCourse } from '@portal/contracts';
import { Badge, Button, Muted, Select } from '@portal/ui';
import { SortableList, useSortableRow } from './ProgramDnd';
import type { DraftAction, DraftStage } from './stagesModel';

interface StageCoursesProps {
  stage: DraftStage;
  readOnly: boolean;
  /** Published courses not yet in any stage of the program (a course belongs to one stage only). */
  available: ProgramCourse[];
  coursesLoading: boolean;
  dispatch: (action: DraftAction) => void;
}

/** A stage's courses in the order the learner sees them: dragged to reorder, added from the published ones, removed. */
export function StageCourses({ stage, readOnly, available, coursesLoading, dispatch }: StageCoursesProps) {
  const [picked, setPicked] = useState('');
  const add = () => {
    const course = available.find((c) => c.id === picked);
    if (!course) return;
    dispatch({ type: 'addCourse', stageKey: stage.key, course });
    setPicked('');
  };
  const full = stage.courses.length >= MAX_STAGE_COURSES;

  return (
    <div>
      <SortableList
        ids={stage.courses.map((c) => c.id)}
        onMove={(from, to) => dispatch({ type: 'moveCourse', stageKey: stage.key, from, to })}
      >
        <List aria-label={`Курсы этапа «${stage.title}»`}>
          {stage.courses.length === 0 && (
            <Muted as="li">В этапе пока нет курсов: добавьте хотя бы один, чтобы назначить программу</Muted>
          )}
          {stage.courses.map((course, i) => (
            <CourseRow
              key={course.id}
              course={course}
              number={i + 1}
              readOnly={readOnly}
              onRemove={() => dispatch({ type: 'removeCourse', stageKey: stage.key, courseId: course.id })}
            />
          ))}
        </List>
      </SortableList>
      {!readOnly && (
        <AddRow>
          <Select
            aria-label={`Курс для этапа «${stage.title}»`}
            value={picked}
            disabled={coursesLoading || full}
            onChange={(e) => setPicked(e.target.value)}
          >
            <option value="">
              {coursesLoading
                ? 'Загрузка...'
                : available.length
                  ? 'Выберите опубликованный курс'
                  : 'Нет курсов, которых ещё нет в программе'}
            </option>
            {available.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </Select>
          <Button type="button" $variant="outline" $size="sm" disabled={!picked || full} onClick={add}>
            Добавить курс
          </Button>
        </AddRow>
      )}
    </div>
  );
}

function CourseRow({
  course,
  number,
  readOnly,
  onRemove,
}: {
  course: ProgramCourse;
  number: number;
  readOnly: boolean;
  onRemove: () => void;
}) {
  const { row, handle } = useSortableRow(course.id, course.title, readOnly);
  return (
    <Item {...row} aria-label={`Курс ${number}: ${course.title}`}>
      {handle(`Переместить курс «${course.title}»`)}
      <Title>
        {course.title} {!course.published && <Badge $tone="warning">не опубликован</Badge>}
      </Title>
      {!readOnly && (
        <Button type="button" $variant="ghost" $size="sm" aria-label={`Убрать курс «${course.title}»`} onClick={onRemove}>
          ✕
        </Button>
      )}
    </Item>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 0 0 8px;
  padding: 0;
  display: grid;
  gap: 6px;
`;

const Item = styled.li<{ $dragging: boolean }>`
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 4px 8px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 8px;
  background: ${({ theme }) => theme.colors.surface};
  position: relative;
  z-index: ${({ $dragging }) => ($dragging ? 2 : 'auto')};
  box-shadow: ${({ $dragging }) => ($dragging ? '0 6px 16px rgba(0, 0, 0, 0.18)' : 'none')};
`;

const Title = styled.span`
  flex: 1;
  min-width: 0;
  overflow-wrap: anywhere;
`;

const AddRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  select {
    flex: 1 1 200px;
    min-width: 0;
  }
`;
