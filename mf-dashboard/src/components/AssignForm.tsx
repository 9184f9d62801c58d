import { useState, type FormEvent, type SelectHTMLAttributes } from 'react';
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
import { Button, Check, CodeOptions, ErrorBox, Input, Label, Muted, RecordOptions, Select } from '@portal/ui';
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
  /** A control's name, value and change handler, for one of the form's text values. */
  const bind = (key: Exclude<keyof typeof values, 'mandatory'>) => ({
    name: key,
    value: values[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });

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
        <Select disabled={courses.isPending} {...bind('courseId')}>
          <RecordOptions records={courses.data} loading={courses.isPending} placeholder="Выберите опубликованный курс" />
        </Select>
      </Label>
      <CodeSelect label="Кому" codes={KINDS} labels={AUDIENCE_LABELS} {...bind('kind')} />
      {values.kind === 'department' && (
        <Label>
          Подразделение
          <Input maxLength={120} {...bind('department')} />
        </Label>
      )}
      {values.kind === 'role' && <CodeSelect label="Роль" codes={STUDY_ROLES} labels={ROLE_LABELS} {...bind('role')} />}
      <Label>
        Срок
        <Input type="date" {...bind('dueDate')} />
      </Label>
      <Label>
        Повторять каждые (месяцев)
        <Input type="number" min={1} max={120} {...bind('recurrenceMonths')} />
      </Label>
      <Check
        label="Обязательное"
        name="mandatory"
        checked={values.mandatory}
        onChange={(e) => setValues((v) => ({ ...v, mandatory: e.target.checked }))}
      />
      <Label>
        Сообщение
        <Input maxLength={2000} {...bind('message')} />
      </Label>
      {(problem || error) && <ErrorBox>{problem ?? error}</ErrorBox>}
      <Muted>Сотрудники, которые позже придут в подразделение, тоже получат назначение.</Muted>
      <Button type="submit" disabled={busy}>
        Назначить
      </Button>
    </Form>
  );
}

/** A labelled select over a closed list of codes, each said by its label. */
function CodeSelect<V extends string>({
  label,
  codes,
  labels,
  ...select
}: { label: string; codes: readonly V[]; labels: Record<V, string> } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Label>
      {label}
      <Select {...select}>
        <CodeOptions codes={codes} labels={labels} />
      </Select>
    </Label>
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
