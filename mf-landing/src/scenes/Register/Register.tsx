import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { APPLY_FOR_ROLES, CONSENT_DOCUMENT, type Role } from '@portal/contracts';
import { Button, ConsentCheck, ErrorBox, Field, Input, Muted, useZodForm } from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';
import { emptyRegistration, registrationForm } from '../../forms';
import { AccountFields } from '../../components/AccountFields';
import { RoleField } from '../../components/RoleField';

const ROLES: Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR', 'ADMIN'];

/** /register: the separate form, where ADMIN is offered with the administrator password. */
export function Register() {
  const { error, register } = useAuth();
  const form = useZodForm(registrationForm, emptyRegistration());
  const { errors, isSubmitting } = form.formState;
  const role = form.watch('role') as Role;

  const submit = form.handleSubmit(async (values) => {
    try {
      await register({
        email: values.email,
        password: values.password,
        fullName: values.fullName,
        role: values.role,
        consentVersion: CONSENT_DOCUMENT.version,
        ...(values.role === 'ADMIN' ? { adminPassword: values.adminPassword } : {}),
      });
      // An application (CURATOR) is pending: the dashboard says so; everyone else starts with the courses.
      navigate(APPLY_FOR_ROLES.includes(values.role) ? paths.dashboard() : paths.courses());
    } catch {
      /* shown above the form */
    }
  });

  return (
    <AuthScreen>
      <AuthPanel $wide>
        <h1>Регистрация</h1>
        <Muted>Поля, отмеченные *, обязательны</Muted>
        {error && <ErrorBox>{error}</ErrorBox>}
        <AuthForm onSubmit={submit} noValidate>
          <AccountFields form={form} required />
          <RoleField form={form} roles={ROLES} required />
          {role === 'ADMIN' && (
            <Field required label="Пароль администратора" error={errors.adminPassword?.message}>
              <Input type="password" {...form.register('adminPassword')} />
            </Field>
          )}
          <ConsentCheck error={errors.consent?.message} {...form.register('consent')} />
          <Button type="submit" disabled={isSubmitting}>
            Зарегистрироваться
          </Button>
          {process.env.NODE_ENV !== 'production' && (
            <Button
              type="button"
              $variant="secondary"
              onClick={() =>
                form.reset({
                  fullName: 'Администратор Портала',
                  email: 'admin2@portal.local',
                  password: 'Portal-Glav-2026',
                  confirm: 'Portal-Glav-2026',
                  role: 'ADMIN',
                  adminPassword: '',
                  consent: false,
                })
              }
            >
              Заполнить данные администратора (разработка)
            </Button>
          )}
        </AuthForm>
        <Button $variant="link" type="button" onClick={() => navigate(paths.signIn())}>
          Уже есть аккаунт? Войти
        </Button>
      </AuthPanel>
    </AuthScreen>
  );
}
