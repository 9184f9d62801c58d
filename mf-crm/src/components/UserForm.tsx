import { useState, type FormEvent } from 'react';
import {
  ROLES,
  ROLE_LABELS,
  userUpdateSchema,
  type Role,
  type User,
  type UserEditRights,
  type UserUpdateInput,
} from '@portal/contracts';
import { Button, Input, Label, Muted, Select } from '@portal/ui';
import styled from 'styled-components';
import { firstIssue } from '../format';
import { Actions, FormGrid, Required } from './Form';

interface Props {
  user: User;
  /** What the signed-in person may change in this account (contracts' userEditRights; the auth service enforces it too). */
  rights: UserEditRights;
  busy: boolean;
  onSubmit: (values: UserUpdateInput) => void;
  onCancel: () => void;
}

export function UserForm({ user, rights, busy, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState({
    lastName: user.lastName,
    firstName: user.firstName,
    middleName: user.middleName,
    department: user.department,
    position: user.position,
    email: user.email,
    role: user.role as Role,
  });
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
          Фамилия
          <Required />
        </span>
        <Input
          name="lastName"
          autoComplete="off"
          value={values.lastName}
          onChange={set('lastName')}
          maxLength={100}
          readOnly={!rights.fullName}
          autoFocus
        />
      </Label>
      <Label>
        <span>
          Имя
          <Required />
        </span>
        <Input
          name="firstName"
          autoComplete="off"
          value={values.firstName}
          onChange={set('firstName')}
          maxLength={100}
          readOnly={!rights.fullName}
        />
      </Label>
      <Label>
        <span>Отчество</span>
        <Input
          name="middleName"
          autoComplete="off"
          value={values.middleName}
          onChange={set('middleName')}
          maxLength={100}
          readOnly={!rights.fullName}
        />
      </Label>
      <Label>
        <span>
          Email
          <Required />
        </span>
        <Input
          name="email"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={set('email')}
          maxLength={254}
          readOnly={!rights.email}
          aria-describedby={rights.email ? undefined : 'user-form-admin-only'}
        />
      </Label>
      <Label>
        <span>
          Роль
          <Required />
        </span>
        <Select name="role" value={values.role} onChange={set('role')} disabled={!rights.role}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </Select>
      </Label>
      <Label>
        <span>Подразделение</span>
        <Input
          name="department"
          autoComplete="off"
          value={values.department}
          onChange={set('department')}
          maxLength={120}
          readOnly={!rights.department}
        />
      </Label>
      <Label>
        <span>Должность</span>
        <Input
          name="position"
          autoComplete="off"
          value={values.position}
          onChange={set('position')}
          maxLength={120}
          readOnly={!rights.department}
        />
      </Label>
      {(!rights.email || !rights.role) && (
        <Note id="user-form-admin-only">Email, роль, подразделение и должность меняет только администратор</Note>
      )}
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

const Note = styled(Muted)`
  margin: 0;
  font-size: 13px;
`;
