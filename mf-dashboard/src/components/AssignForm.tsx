import { useState, type Ref, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import {
  AUDIENCE_LABELS,
  ROLE_LABELS,
  STUDY_ROLES,
  assignmentCreateSchema,
  type Audience,
  type AssignmentCreateInput,
  type AudienceKind,
  type Role,
} from '@portal/contracts';
import {
  Button,
  Check,
  CodeOptions,
  Controller,
  ErrorBox,
  Field,
  FieldError,
  FormProvider,
  Input,
  Label,
  Muted,
  RecordOptions,
  Select,
  messagesByField,
  useCheckedForm,
  useDebounced,
  useFormContext,
  useWatch,
  type FormCheck,
  type Refusal,
} from '@portal/ui';
import { DEPARTMENTS_PAGE_SIZE, assignmentKeys, fetchDepartments, fetchPublishedCourses } from '../api/assignments';
import { PeoplePicker, type PickedPerson } from './PeoplePicker';

/* ------------------------------------------------------------ the audience, shared with the program's form */

/** The kinds of audience the assignment forms offer. */
const KINDS: AudienceKind[] = ['department', 'users', 'role', 'all'];

/** Who an assignment is for, as the form holds it: each kind's choice is kept while another kind is shown. */
export interface AudienceValues {
  kind: AudienceKind;
  department: string;
  role: Role;
  people: PickedPerson[];
}
type AudienceField = keyof AudienceValues;

export const emptyAudience = (): AudienceValues => ({ kind: 'department', department: '', role: 'CLIENT', people: [] });

/** The audience sent: only the chosen kind's part. */
export function audienceOf({ kind, department, role, people }: AudienceValues): Audience {
  switch (kind) {
    case 'users':
      return { kind, userIds: people.map((p) => p.id) };
    case 'department':
      return { kind, department };
    case 'role':
      return { kind, role };
    case 'all':
      return { kind };
  }
}

/** The audience field a path under `audience` is about (the contract's issue or the server's `field`). */
function audienceFieldOf(rest: readonly PropertyKey[]): AudienceField {
  const [part] = rest;
  return part === 'department' ? 'department' : part === 'userIds' ? 'people' : part === 'role' ? 'role' : 'kind';
}

/**
 * The form field a path of the request is about, for a form whose values put the audience under
 * `audience` and name the rest as the request does (`fields`); null for a path it does not show.
 */
export function assignFieldOf<F extends string>(
  fields: readonly F[],
  path: readonly PropertyKey[],
): F | `audience.${AudienceField}` | null {
  const [head, ...rest] = path;
  if (head === 'audience') return `audience.${audienceFieldOf(rest)}`;
  return (fields as readonly PropertyKey[]).includes(head) ? (head as F) : null;
}

/** A refusal's field as a form field (`audience.userIds` → `audience.people`), or null when it names none of the form's. */
export const refusedField = <F extends string>(fields: readonly F[], refusal: Refusal | null) =>
  refusal?.field ? assignFieldOf(fields, refusal.field.split('.')) : null;

/** «Кому» and the choice of its kind: a department, people, a role, or nobody to choose for «все». */
export function AudienceFields({ messageFor }: { messageFor: (field: AudienceField) => string | undefined }) {
  const form = useFormContext<{ audience: AudienceValues }>();
  const kind = useAudienceKind();
  return (
    <>
      <Field label="Кому" error={messageFor('kind')}>
        <Select {...form.register('audience.kind')}>
          <CodeOptions codes={KINDS} labels={AUDIENCE_LABELS} />
        </Select>
      </Field>
      {kind === 'department' && <DepartmentSelect error={messageFor('department')} {...form.register('audience.department')} />}
      {kind === 'users' && (
        <Controller
          control={form.control}
          name="audience.people"
          render={({ field }) => (
            // The picker's search box takes the focus when nobody is picked; the message, which it
            // cannot point at, is said as it appears.
            <People ref={(el: HTMLDivElement | null) => field.ref(el?.querySelector('input') ?? null)}>
              <PeoplePicker picked={field.value} onChange={field.onChange} />
              {messageFor('people') && <FieldError role="alert">{messageFor('people')}</FieldError>}
            </People>
          )}
        />
      )}
      {kind === 'role' && (
        <Field label="Роль" error={messageFor('role')}>
          <Select {...form.register('audience.role')}>
            <CodeOptions codes={STUDY_ROLES} labels={ROLE_LABELS} />
          </Select>
        </Field>
      )}
    </>
  );
}

/** The kind of audience chosen now, inside a form that holds an `audience`. */
export const useAudienceKind = () => useWatch<{ audience: AudienceValues }, 'audience.kind'>({ name: 'audience.kind' });

/* ------------------------------------------------------------ «Назначить курс» */

interface AssignValues {
  courseId: string;
  audience: AudienceValues;
  dueDate: string;
  mandatory: boolean;
  /** Text, so that blank means «once». */
  recurrenceMonths: string;
  message: string;
}
const ASSIGN_FIELDS = ['courseId', 'dueDate', 'mandatory', 'recurrenceMonths', 'message'] as const;
type AssignField = (typeof ASSIGN_FIELDS)[number];

const COURSE_REQUIRED = 'Выберите курс';

/** The form's values as the request, checked by the contract's schema; each message on the field it is about. */
export function checkAssignment(values: AssignValues): FormCheck<AssignmentCreateInput> {
  const checked = assignmentCreateSchema.safeParse({
    courseId: values.courseId,
    audience: audienceOf(values.audience),
    dueDate: values.dueDate,
    mandatory: values.mandatory,
    recurrenceMonths: values.recurrenceMonths ? Number(values.recurrenceMonths) : null,
    message: values.message,
  });
  if (checked.success) return { ok: true, values: checked.data };
  const errors = messagesByField(checked.error.issues, (path) => assignFieldOf(ASSIGN_FIELDS, path));
  // No course chosen is said plainly rather than as a malformed id.
  if (!values.courseId) errors.courseId = COURSE_REQUIRED;
  return { ok: false, errors };
}

interface Props {
  busy: boolean;
  /** The server's refusal: under the field it names, else above the button. */
  error: Refusal | null;
  onSubmit: (input: AssignmentCreateInput) => void;
}

/** «Назначить курс»: a published course, who, by when, mandatory, recurrence, a message. */
export function AssignForm({ busy, error, onSubmit }: Props) {
  const courses = useQuery({ queryKey: assignmentKeys.courses, queryFn: ({ signal }) => fetchPublishedCourses(signal) });
  const form = useCheckedForm(checkAssignment, {
    courseId: '',
    audience: emptyAudience(),
    dueDate: '',
    mandatory: true,
    recurrenceMonths: '',
    message: '',
  });
  const { errors } = form.formState;
  const serverField = refusedField(ASSIGN_FIELDS, error);
  const refused = (field: string) => (error && serverField === field ? error.message : undefined);
  const messageFor = (field: AssignField) => errors[field]?.message ?? refused(field);

  return (
    <FormProvider {...form}>
      <Form onSubmit={form.handleSubmit((input) => onSubmit(input))} noValidate aria-label="Назначить курс">
        <Field label="Курс" error={messageFor('courseId')}>
          <Select disabled={courses.isPending} {...form.register('courseId')}>
            <RecordOptions records={courses.data} loading={courses.isPending} placeholder="Выберите опубликованный курс" />
          </Select>
        </Field>
        <AudienceFields messageFor={(field) => errors.audience?.[field]?.message ?? refused(`audience.${field}`)} />
        <Field label="Срок" error={messageFor('dueDate')}>
          <Input type="date" {...form.register('dueDate')} />
        </Field>
        <Field label="Повторять каждые (месяцев)" error={messageFor('recurrenceMonths')}>
          <Input type="number" min={1} max={120} {...form.register('recurrenceMonths')} />
        </Field>
        <Check label="Обязательное" {...form.register('mandatory')} />
        <Field label="Сообщение" error={messageFor('message')}>
          <Input maxLength={2000} {...form.register('message')} />
        </Field>
        {error && !serverField && <ErrorBox>{error.message}</ErrorBox>}
        <DepartmentNote>Сотрудники, которые позже придут в подразделение, тоже получат назначение.</DepartmentNote>
        <Button type="submit" disabled={busy}>
          Назначить
        </Button>
      </Form>
    </FormProvider>
  );
}

/** A note said only while the audience is a department. */
export function DepartmentNote({ children }: { children: string }) {
  return useAudienceKind() === 'department' ? <Muted>{children}</Muted> : null;
}

/* ------------------------------------------------------------ «Подразделение» */

interface DepartmentSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value'> {
  ref?: Ref<HTMLSelectElement>;
  error?: string;
}

/**
 * «Подразделение», chosen from the departments people are in. A company with more than a select's
 * worth finds one by typing part of its name.
 */
export function DepartmentSelect({ error, ...select }: DepartmentSelectProps) {
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
      <Field label="Подразделение" error={error}>
        <Select disabled={departments.isPending} {...select}>
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
      </Field>
    </>
  );
}

const Form = styled.form`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  align-items: start;
  p {
    grid-column: 1 / -1;
    margin: 0;
  }
`;
const People = styled.div`
  grid-column: 1 / -1;
  display: grid;
  gap: 6px;
  min-width: 0;
`;
