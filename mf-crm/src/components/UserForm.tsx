import { useState, type FormEvent } from 'react';
import { ROLES, ROLE_LABELS, userUpdateSchema, type Role, type User, type UserUpdateInput } from '@portal/contracts';
import { Button, Input, Label, Select } from '@portal/ui';
import { firstIssue } from '../format';
import { Actions, FormGrid, Required } from './Form';

interface Props {
  user: User;
  /** Only an administrator may hand out the administrator role (the auth service enforces it too). */
  canGrantAdmin: boolean;
  busy: boolean;
  onSubmit: (values: UserUpdateInput) => void;
  onCancel: () => void;
}

export function UserForm({ user, canGrantAdmin, busy, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState({ fullName: user.fullName, email: user.email, role: user.role as Role });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = userUpdateSchema.safeParse(values);
    if (!checked.success) return window.alert(firstIssue(checked.error));
    onSubmit(checked.data);
  };

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Label>
        <span>
          Полное имя
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
        <span>
          Роль
          <Required />
        </span>
        <Select name="role" value={values.role} onChange={set('role')}>
          {ROLES.map((role) => (
            <option key={role} value={role} disabled={role === 'ADMIN' && !canGrantAdmin && user.role !== 'ADMIN'}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </Select>
      </Label>
      <Actions>
        <Button type="button" $variant="outline" onClick={onCancel}>
          Отмена
        </Button>
        <Button type="submit" disabled={busy}>
          Сохранить
        </Button>
      </Actions>
    </FormGrid>
  );
}
