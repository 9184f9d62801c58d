import { useState, type FormEvent } from 'react';
import { contactCreateSchema, type Contact } from '@portal/contracts';
import { Button, Input, Label } from '@portal/ui';
import { firstIssue } from '../format';
import { Actions, FormGrid, Required } from './Form';

export interface ContactValues {
  fullName: string;
  email: string;
  phone: string;
  role: string;
}

interface Props {
  orgId: string;
  initial?: Contact;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: ContactValues) => void;
  onCancel: () => void;
}

export function ContactForm({ orgId, initial, submitLabel, busy, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState<ContactValues>({
    fullName: initial?.fullName ?? '',
    email: initial?.email ?? '',
    phone: initial?.phone ?? '',
    role: initial?.role ?? '',
  });
  const set = (key: keyof ContactValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = contactCreateSchema.safeParse({ ...values, orgId });
    if (!checked.success) return window.alert(firstIssue(checked.error));
    onSubmit(values);
  };

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Label>
        <span>
          ФИО
          <Required />
        </span>
        <Input name="fullName" autoComplete="off" value={values.fullName} onChange={set('fullName')} maxLength={200} autoFocus />
      </Label>
      <Label>
        <span>
          Email
          <Required />
        </span>
        <Input name="email" type="email" autoComplete="off" value={values.email} onChange={set('email')} maxLength={254} />
      </Label>
      <Label>
        Телефон
        <Input
          name="phone"
          type="tel"
          autoComplete="off"
          value={values.phone}
          onChange={set('phone')}
          maxLength={40}
          placeholder="+7 (999) 123-45-67"
        />
      </Label>
      <Label>
        Должность
        <Input name="role" autoComplete="off" value={values.role} onChange={set('role')} maxLength={200} />
      </Label>
      <Actions>
        <Button type="button" $variant="outline" onClick={onCancel}>
          Отмена
        </Button>
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </Actions>
    </FormGrid>
  );
}
