import { useId } from 'react';
import styled from 'styled-components';
import { COURSE_DEFAULTS, COURSE_LEVEL_SUGGESTIONS, courseCreateSchema, type CourseCreateInput } from '@portal/contracts';
import { Check, ErrorBox, Field, FormActions, Input, Stack, TextArea, useZodForm } from '@portal/ui';

interface CourseFormProps {
  submitLabel: string;
  busy: boolean;
  /** A message from the server, and the field it is about when it names one. */
  error: { message: string; field?: string } | null;
  onSubmit: (input: CourseCreateInput) => void;
  onCancel: () => void;
}

const CHECKED_FIELDS = ['title', 'price', 'duration'] as const;
type CheckedField = (typeof CHECKED_FIELDS)[number];

/**
 * The course form, checked by the server's own schema: title required; price and duration numbers ≥ 0
 * (blank is 0); level free text; published.
 */
export function CourseForm({ submitLabel, busy, error, onSubmit, onCancel }: CourseFormProps) {
  const ids = { levels: useId(), published: useId() };
  const form = useZodForm(courseCreateSchema, {
    title: '',
    description: '',
    price: '0',
    duration: '0',
    level: COURSE_DEFAULTS.level,
    isPublished: false,
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) => onSubmit(input));

  // A server refusal that names one of our fields shows beside it; anything else above the form.
  const serverField = CHECKED_FIELDS.find((field) => field === error?.field) ?? null;
  const messageFor = (field: CheckedField) => errors[field]?.message ?? (serverField === field ? error?.message : undefined);

  const numberField = (field: 'price' | 'duration', label: string) => (
    <Field label={label} error={messageFor(field)}>
      <Input type="number" inputMode="decimal" min={0} step="any" {...form.register(field)} />
    </Field>
  );

  return (
    <Stack as="form" $gap={16} onSubmit={submit} noValidate aria-busy={busy}>
      {error && !serverField && <ErrorBox>{error.message}</ErrorBox>}
      <Field required label="Название" error={messageFor('title')}>
        <Input required maxLength={200} autoFocus {...form.register('title')} />
      </Field>
      <Field label="Описание">
        <TextArea rows={4} maxLength={5000} {...form.register('description')} />
      </Field>
      <Row>
        {numberField('price', 'Цена, ₽')}
        {numberField('duration', 'Длительность, ч')}
      </Row>
      <Field label="Уровень">
        <Input list={ids.levels} maxLength={100} {...form.register('level')} />
      </Field>
      <datalist id={ids.levels}>
        {COURSE_LEVEL_SUGGESTIONS.map((level) => (
          <option key={level} value={level} />
        ))}
      </datalist>
      <Check label="Опубликован" id={ids.published} {...form.register('isPublished')} />
      <FormActions busy={busy} submitLabel={busy ? 'Сохранение...' : submitLabel} onCancel={onCancel} />
    </Stack>
  );
}

const Row = styled.div`
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
`;
