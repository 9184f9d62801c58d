import { useId, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { COURSE_DEFAULTS, COURSE_LEVEL_SUGGESTIONS, CONTENT_MSG, type CourseCreateInput } from '@portal/contracts';
import { Check, ErrorBox, Field, FormActions, Input, Stack, TextArea } from '@portal/ui';

interface CourseFormProps {
  submitLabel: string;
  busy: boolean;
  /** A message from the server, and the field it is about when it names one. */
  error: { message: string; field?: string } | null;
  onSubmit: (input: CourseCreateInput) => void;
  onCancel: () => void;
}

type CheckedField = 'title' | 'price' | 'duration';

/** A non-numeric entry counts as 0; below 0 is refused. */
const toNumber = (raw: string): number => {
  const n = Number(raw.trim().replace(',', '.'));
  return raw.trim() === '' || !Number.isFinite(n) ? 0 : n;
};

/** The course form and its validation rules: title required; price and duration numbers ≥ 0; level free text; published. */
export function CourseForm({ submitLabel, busy, error, onSubmit, onCancel }: CourseFormProps) {
  const ids = { levels: useId(), published: useId() };
  const [form, setForm] = useState({
    title: '',
    description: '',
    price: '0',
    duration: '0',
    level: COURSE_DEFAULTS.level,
    isPublished: false,
  });
  const [problems, setProblems] = useState<Partial<Record<CheckedField, string>>>({});
  const refs = {
    title: useRef<HTMLInputElement>(null),
    price: useRef<HTMLInputElement>(null),
    duration: useRef<HTMLInputElement>(null),
  };
  const set = (key: 'title' | 'description' | 'price' | 'duration' | 'level') => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setProblems((p) => ({ ...p, [key]: undefined }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const price = toNumber(form.price);
    const duration = toNumber(form.duration);
    const found: Partial<Record<CheckedField, string>> = {};
    if (!form.title.trim()) found.title = CONTENT_MSG.courseTitleRequired;
    if (price < 0) found.price = CONTENT_MSG.priceMin;
    if (duration < 0) found.duration = CONTENT_MSG.durationMin;
    setProblems(found);
    const first = (['title', 'price', 'duration'] as const).find((k) => found[k]);
    if (first) return refs[first].current?.focus();
    onSubmit({
      title: form.title.trim(),
      description: form.description.trim(),
      price,
      duration,
      level: form.level.trim() || COURSE_DEFAULTS.level,
      isPublished: form.isPublished,
    });
  };

  // A server refusal that names one of our fields shows beside it; anything else above the form.
  const serverField =
    error?.field && (['title', 'price', 'duration'] as string[]).includes(error.field) ? (error.field as CheckedField) : null;
  const messageFor = (field: CheckedField) => problems[field] ?? (serverField === field ? error?.message : undefined);

  const numberField = (field: 'price' | 'duration', label: string) => (
    <Field label={label} error={messageFor(field)}>
      <Input
        ref={refs[field]}
        name={field}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={form[field]}
        onChange={set(field)}
      />
    </Field>
  );

  return (
    <Stack as="form" $gap={16} onSubmit={submit} noValidate aria-busy={busy}>
      {error && !serverField && <ErrorBox>{error.message}</ErrorBox>}
      <Field required label="Название" error={messageFor('title')}>
        <Input ref={refs.title} name="title" required maxLength={200} autoFocus value={form.title} onChange={set('title')} />
      </Field>
      <Field label="Описание">
        <TextArea name="description" rows={4} maxLength={5000} value={form.description} onChange={set('description')} />
      </Field>
      <Row>
        {numberField('price', 'Цена, ₽')}
        {numberField('duration', 'Длительность, ч')}
      </Row>
      <Field label="Уровень">
        <Input name="level" list={ids.levels} maxLength={100} value={form.level} onChange={set('level')} />
      </Field>
      <datalist id={ids.levels}>
        {COURSE_LEVEL_SUGGESTIONS.map((level) => (
          <option key={level} value={level} />
        ))}
      </datalist>
      <Check
        label="Опубликован"
        id={ids.published}
        name="isPublished"
        checked={form.isPublished}
        onChange={(e) => setForm((f) => ({ ...f, isPublished: e.target.checked }))}
      />
      <FormActions busy={busy} submitLabel={busy ? 'Сохранение...' : submitLabel} onCancel={onCancel} />
    </Stack>
  );
}

const Row = styled.div`
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
`;
