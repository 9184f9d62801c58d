import { contactCreateSchema, type Contact } from '@portal/contracts';
import { Field, FormActions, Input, useZodForm } from '@portal/ui';
import { FormGrid, type FormProps } from './Form';

export interface ContactValues {
  fullName: string;
  email: string;
  phone: string;
  role: string;
}

interface Props extends FormProps<ContactValues> {
  orgId: string;
  initial?: Contact;
  submitLabel: string;
}

export function ContactForm({ orgId, initial, submitLabel, busy, onSubmit, onCancel }: Props) {
  const form = useZodForm(contactCreateSchema, {
    orgId,
    fullName: initial?.fullName ?? '',
    email: initial?.email ?? '',
    phone: initial?.phone ?? '',
    role: initial?.role ?? '',
  });
  const { errors } = form.formState;
  // The server parses what it is sent; the form only decides whether to send it.
  const submit = form.handleSubmit(() => {
    const { fullName, email, phone, role } = form.getValues() as ContactValues;
    onSubmit({ fullName, email, phone, role });
  });

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Field required label="ФИО" error={errors.fullName?.message}>
        <Input autoComplete="off" maxLength={200} data-autofocus {...form.register('fullName')} />
      </Field>
      <Field required label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="off" maxLength={254} {...form.register('email')} />
      </Field>
      <Field label="Телефон" error={errors.phone?.message}>
        <Input type="tel" autoComplete="off" maxLength={40} placeholder="+7 (999) 123-45-67" {...form.register('phone')} />
      </Field>
      <Field label="Должность" error={errors.role?.message}>
        <Input autoComplete="off" maxLength={200} {...form.register('role')} />
      </Field>
      <FormActions submitLabel={submitLabel} busy={busy} onCancel={onCancel} />
    </FormGrid>
  );
}
