import type { InputHTMLAttributes, Ref } from 'react';
import { Field, Input } from '@portal/ui';
import type { RegistrationForm } from '../forms';

/** What a form's `register('…')` hands an input. */
type Registered = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

interface CredentialFieldsProps {
  email: Registered;
  password: Registered;
  errors: { email?: { message?: string }; password?: { message?: string } };
  /** A new account's password: the browser's password manager offers to make one up instead of filling in a saved one. */
  newPassword?: boolean;
  /** Marks the fields required (the separate registration form says what * means). */
  required?: boolean;
}

/** The email and the password, as the sign-in and both registration forms ask for them. */
export function CredentialFields({ email, password, errors, newPassword = false, required = false }: CredentialFieldsProps) {
  return (
    <>
      <Field required={required} label="Email" error={errors.email?.message}>
        <Input type="email" required={required} autoComplete="email" {...email} />
      </Field>
      <Field required={required} label="Пароль" error={errors.password?.message}>
        <Input
          type="password"
          required={required}
          autoComplete={newPassword ? 'new-password' : 'current-password'}
          {...password}
        />
      </Field>
    </>
  );
}

/** A new account's name, email, password and its confirmation (the /auth form's registration and /register). */
export function AccountFields({ form, required = false }: { form: RegistrationForm; required?: boolean }) {
  const { errors } = form.formState;
  return (
    <>
      <Field required={required} label="Полное имя" error={errors.fullName?.message}>
        <Input required={required} autoComplete="name" {...form.register('fullName')} />
      </Field>
      <CredentialFields
        email={form.register('email')}
        password={form.register('password')}
        errors={errors}
        newPassword
        required={required}
      />
      <Field required={required} label="Подтвердите пароль" error={errors.confirm?.message}>
        <Input type="password" required={required} autoComplete="new-password" {...form.register('confirm')} />
      </Field>
    </>
  );
}
