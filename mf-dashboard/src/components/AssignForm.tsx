import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import {
  AUDIENCE_LABELS,
  ROLE_LABELS,
  STUDY_ROLES,
  assignmentCreateSchema,
  type AssignmentCreateInput,
  type AudienceKind,
  type Role,
} from '@portal/contracts';
import { Button, CodeOptions, ErrorBox, Input, Label, Muted, Select } from '@portal/ui';
import { assignmentKeys, fetchPublishedCourses } from '../api/assignments';

/** The kinds of audience this form offers (named people are assigned over the API). */
const KINDS: AudienceKind[] = ['department', 'role', 'all'];

interface Props {
  busy: boolean;
  error: string | null;
  onSubmit: (input: AssignmentCreateInput) => void;
}

/** «Назначить курс»: a published course, who, by when, mandatory, recurrence, a message. */
export function AssignForm({ busy, error, onSubmit }: Props) {
  const courses = useQuery({ queryKey: assignmentKeys.courses, queryFn: ({ signal }) => fetchPublishedCourses(signal) });
  const [values, setValues] = useState({
    courseId: '',
    kind: 'department' as AudienceKind,
    department: '',
    role: 'CLIENT' as Role,
    dueDate: '',
    mandatory: true,
    recurrenceMonths: '',
    message: '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const audience =
      values.kind === 'department'
        ? { kind: 'department', department: values.department }
        : values.kind === 'role'
          ? { kind: 'role', role: values.role }
          : { kind: 'all' };
    const checked = assignmentCreateSchema.safeParse({
      courseId: values.courseId,
      audience,
      dueDate: values.dueDate,
      mandatory: values.mandatory,
      recurrenceMonths: values.recurrenceMonths ? Number(values.recurrenceMonths) : null,
      message: values.message,
    });
    if (!values.courseId) return setProblem('Выберите курс');
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Проверьте поля формы');
    setProblem(null);
    onSubmit(checked.data);
  };

  return (
    <Form onSubmit={submit} noValidate aria-label="Назначить курс">
      <Label>
        Курс
        <Select name="courseId" value={values.courseId} onChange={set('courseId')} disabled={courses.isPending}>
          <option value="">{courses.isPending ? 'Загрузка...' : 'Выберите опубликованный курс'}</option>
          {courses.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </Select>
      </Label>
      <Label>
        Кому
        <Select name="kind" value={values.kind} onChange={set('kind')}>
          <CodeOptions codes={KINDS} labels={AUDIENCE_LABELS} />
        </Select>
      </Label>
      {values.kind === 'department' && (
        <Label>
          Подразделение
          <Input name="department" value={values.department} onChange={set('department')} maxLength={120} />
        </Label>
      )}
      {values.kind === 'role' && (
        <Label>
          Роль
          <Select name="role" value={values.role} onChange={set('role')}>
            <CodeOptions codes={STUDY_ROLES} labels={ROLE_LABELS} />
          </Select>
        </Label>
      )}
      <Label>
        Срок
        <Input name="dueDate" type="date" value={values.dueDate} onChange={set('dueDate')} />
      </Label>
      <Label>
        Повторять каждые (месяцев)
        <Input
          name="recurrenceMonths"
          type="number"
          min={1}
          max={120}
          value={values.recurrenceMonths}
          onChange={set('recurrenceMonths')}
        />
      </Label>
      <Check>
        <input
          type="checkbox"
          name="mandatory"
          checked={values.mandatory}
          onChange={(e) => setValues((v) => ({ ...v, mandatory: e.target.checked }))}
        />
        Обязательное
      </Check>
      <Label>
        Сообщение
        <Input name="message" value={values.message} onChange={set('message')} maxLength={2000} />
      </Label>
      {(problem || error) && <ErrorBox>{problem ?? error}</ErrorBox>}
      <Muted>Сотрудники, которые позже придут в подразделение, тоже получат назначение.</Muted>
      <Button type="submit" disabled={busy}>
        Назначить
      </Button>
    </Form>
  );
}

const Form = styled.form`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  align-items: end;
  p {
    grid-column: 1 / -1;
    margin: 0;
  }
`;

const Check = styled.label`
  display: flex;
  gap: 8px;
  align-items: center;
`;
