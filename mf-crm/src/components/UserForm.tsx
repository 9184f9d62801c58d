import {
  ROLES,
  ROLE_LABELS,
  userUpdateSchema,
  type Role,
  type User,
  type UserEditRights,
  type UserUpdateInput,
} from '@portal/contracts';
import { CodeOptions, Field, FormActions, Input, Muted, Select, useZodForm } from '@portal/ui';
import styled from 'styled-components';
import { FormGrid, type FormProps } from './Form';

interface Props extends FormProps<UserUpdateInput> {
  user: User;
  /** What the signed-in person may change in this account (contracts' userEditRights; the auth service enforces it too). */
  rights: UserEditRights;
}

export function UserForm({ user, rights, busy, onSubmit, onCancel }: Props) {
  const form = useZodForm(userUpdateSchema, {
    lastName: user.lastName,
    firstName: user.firstName,
    middleName: user.middleName,
    department: user.department,
    position: user.position,
    email: user.email,
    role: user.role as Role,
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => onSubmit(values));

  return (
    <FormGrid onSubmit={submit} noValidate>
      {/* The schema names a missing name on fullName: it is shown under the surname. */}
      <Field required label="Фамилия" error={errors.lastName?.message ?? errors.fullName?.message}>
        <Input autoComplete="off" maxLength={100} readOnly={!rights.fullName} data-autofocus {...form.register('lastName')} />
      </Field>
      <Field required label="Имя" error={errors.firstName?.message}>
        <Input autoComplete="off" maxLength={100} readOnly={!rights.fullName} {...form.register('firstName')} />
      </Field>
      <Field label="Отчество" error={errors.middleName?.message}>
        <Input autoComplete="off" maxLength={100} readOnly={!rights.fullName} {...form.register('middleName')} />
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
          <CodeOptions codes={ROLES} labels={ROLE_LABELS} />
        </Select>
      </Field>
      <Field label="Подразделение" error={errors.department?.message}>
        <Input autoComplete="off" maxLength={120} readOnly={!rights.department} {...form.register('department')} />
      </Field>
      <Field label="Должность" error={errors.position?.message}>
        <Input autoComplete="off" maxLength={120} readOnly={!rights.department} {...form.register('position')} />
      </Field>
      {(!rights.email || !rights.role) && (
        <Note id="user-form-admin-only">Email, роль, подразделение и должность меняет только администратор</Note>
      )}
      <FormActions submitLabel="Сохранить" busy={busy} onCancel={onCancel} />
    </FormGrid>
  );
}

const Note = styled(Muted)`
  margin: 0;
  font-size: 13px;
`;
