import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { APPLY_FOR_ROLES, CONSENT_DOCUMENT, SELF_REGISTER_ROLES } from '@portal/contracts';
import { Button, ConsentCheck, ErrorBox, Muted, useZodForm } from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';
import { emptyRegistration, registrationForm } from '../../forms';
import { AccountFields } from '../../components/AccountFields';
import { RoleField } from '../../components/RoleField';

/**
 * /register: the separate form with the roles a person may choose themselves. ADMIN is never offered:
 * it is an administrator's edit, or the API's bootstrap of an empty portal (docs/decisions/001-roles-on-the-server.md).
 */
export function Register() {
  const { error, register } = useAuth();
  const form = useZodForm(registrationForm, emptyRegistration());
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await register({
        email: values.email,
        password: values.password,
        fullName: values.fullName,
        role: values.role,
        consentVersion: CONSENT_DOCUMENT.version,
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
          <RoleField form={form} roles={SELF_REGISTER_ROLES} required />
          <ConsentCheck error={errors.consent?.message} {...form.register('consent')} />
          <Button type="submit" disabled={isSubmitting}>
            Зарегистрироваться
          </Button>
        </AuthForm>
        <Button $variant="link" type="button" onClick={() => navigate(paths.signIn())}>
          Уже есть аккаунт? Войти
        </Button>
      </AuthPanel>
    </AuthScreen>
  );
}
