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
import { Button, Check, CodeOptions, ErrorBox, Input, Label, Muted, RecordOptions, Select, useDebounced } from '@portal/ui';
import { DEPARTMENTS_PAGE_SIZE, assignmentKeys, fetchDepartments, fetchPublishedCourses } from '../api/assignments';
import { PeoplePicker, type PickedPerson } from './PeoplePicker';

/** The kinds of audience this form offers. */
const KINDS: AudienceKind[] = ['department', 'users', 'role', 'all'];

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
  const [people, setPeople] = useState<PickedPerson[]>([]);
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
      values.kind === 'users'
        ? { kind: 'users', userIds: people.map((p) => p.id) }
        : values.kind === 'department'
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
      {values.kind === 'department' && <DepartmentSelect {...bind('department')} />}
      {values.kind === 'users' && <PeoplePicker picked={people} onChange={setPeople} />}
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
      {values.kind === 'department' && <Muted>Сотрудники, которые позже придут в подразделение, тоже получат назначение.</Muted>}
      <Button type="submit" disabled={busy}>
        Назначить
      </Button>
    </Form>
  );
}

/**
 * «Подразделение», chosen from the departments people are in. A company with more than a select's
 * worth finds one by typing part of its name.
 */
export function DepartmentSelect({ value, ...select }: { value: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim(), 300);
  const departments = useQuery({
    queryKey: assignmentKeys.departments(term),
    queryFn: ({ signal }) => fetchDepartments(term, signal),
  });
  const many = !!term || (departments.data?.total ?? 0) > DEPARTMENTS_PAGE_SIZE;
  return (
    <>
      {many && (
        <Label>
          Найти подразделение
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </Label>
      )}
      <Label>
        Подразделение
        <Select value={value} disabled={departments.isPending} {...select}>
          <option value="">
            {departments.isPending
              ? 'Загрузка...'
              : departments.isError
                ? 'Не удалось загрузить подразделения'
                : departments.data.total
                  ? 'Выберите подразделение'
                  : 'Подразделений пока нет'}
          </option>
          {departments.data?.data.map(({ name }) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Label>
    </>
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
