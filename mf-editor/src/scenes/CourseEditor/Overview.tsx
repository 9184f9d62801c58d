import styled from 'styled-components';
import { COURSE_STATUSES, COURSE_STATUS_LABELS, EDITOR_MSG, lessonsLabel, type CourseStatus } from '@portal/contracts';
import { Input, Label, Muted, Select } from '@portal/ui';
import { TextArea } from '../../components/lesson/BlockProperties';
import { countLessons, type EditorCourse } from '../../model/structure';

interface OverviewProps {
  course: EditorCourse;
  onChange: (patch: { title?: string; description?: string; status?: CourseStatus }) => void;
}

/** Spec section 2's course overview: title, description, counts, status, structure. Edits autosave. */
export function Overview({ course, onChange }: OverviewProps) {
  return (
    <Box aria-label="Обзор курса">
      <h1>Обзор курса</h1>
      <Label>
        Название курса
        <Input value={course.title} maxLength={200} onChange={(e) => onChange({ title: e.target.value })} />
      </Label>
      <Label>
        Описание курса
        <TextArea rows={4} value={course.description} onChange={(e) => onChange({ description: e.target.value })} />
      </Label>
      <Label>
        Статус курса
        <Select value={course.status} onChange={(e) => onChange({ status: e.target.value as CourseStatus })}>
          {COURSE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {COURSE_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      </Label>
      <Facts>
        <div>
          <dt>Модулей</dt>
          <dd>{course.modules.length}</dd>
        </div>
        <div>
          <dt>Уроков</dt>
          <dd>{countLessons(course)}</dd>
        </div>
        <div>
          <dt>Статус</dt>
          <dd>{course.status ? COURSE_STATUS_LABELS[course.status] : EDITOR_MSG.notSpecified}</dd>
        </div>
      </Facts>
      <h2>Структура</h2>
      {course.modules.length === 0 ? (
        <Muted>Модулей пока нет</Muted>
      ) : (
        <Structure aria-label="Структура курса">
          {course.modules.map((m) => (
            <li key={m.id}>
              <span>{m.title}</span>
              <Muted as="span">{lessonsLabel(m.lessons.length)}</Muted>
            </li>
          ))}
        </Structure>
      )}
    </Box>
  );
}

const Box = styled.section`
  display: grid;
  gap: 14px;
  max-width: 760px;
  h1 {
    margin: 0;
    font-size: 24px;
  }
  h2 {
    margin: 8px 0 0;
    font-size: 18px;
  }
`;
const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 12px;
  margin: 0;
  div {
    padding: 12px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
    background: ${({ theme }) => theme.colors.surface};
  }
  dt {
    font-size: 13px;
    color: ${({ theme }) => theme.colors.muted};
  }
  dd {
    margin: 4px 0 0;
    font-size: 20px;
    font-weight: 700;
  }
`;
const Structure = styled.ol`
  margin: 0;
  padding-left: 20px;
  display: grid;
  gap: 6px;
  li span + span {
    margin-left: 8px;
  }
`;
