import {
  ROLES,
  ROLE_LABELS,
  userUpdateSchema,
  type Role,
  type User,
  type UserEditRights,
  type UserUpdateInput,
} from '@portal/contracts';
import { Field, FormActions, Input, Muted, Select, useZodForm } from '@portal/ui';
import styled from 'styled-components';
import { FormGrid } from './Form';

interface Props {
  user: User;
  /** What the signed-in person may change in this account (contracts' userEditRights; the auth service enforces it too). */
  rights: UserEditRights;
  busy: boolean;
  onSubmit: (values: UserUpdateInput) => void;
  onCancel: () => void;
}

export function UserForm({ user, rights, busy, onSubmit, onCancel }: Props) {
  const form = useZodForm(userUpdateSchema, { fullName: user.fullName, email: user.email, role: user.role as Role });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => onSubmit(values));

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Field required label="Полное имя" error={errors.fullName?.message}>
        <Input autoComplete="off" maxLength={200} readOnly={!rights.fullName} data-autofocus {...form.register('fullName')} />
      </Field>
      <Field required label="Email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="off"
          maxLength={254}
          readOnly={!rights.email}
          aria-describedby={rights.email ? undefined : 'user-form-admin-only'}
          {...form.register('email')}
        />
      </Field>
      <Field required label="Роль" error={errors.role?.message}>
        {/* Disabled on the element only: the form still sends the role it was given. */}
        <Select disabled={!rights.role} {...form.register('role')}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </Select>
      </Field>
      {(!rights.email || !rights.role) && <Note id="user-form-admin-only">Email и роль меняет только администратор</Note>}
      <FormActions submitLabel="Сохранить" busy={busy} onCancel={onCancel} />
    </FormGrid>
  );
}

const Note = styled(Muted)`
  margin: 0;
  font-size: 13px;
`;
