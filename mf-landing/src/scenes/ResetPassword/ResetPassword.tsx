import { useState } from 'react';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { MSG } from '@portal/contracts';
import { Button, ErrorBox, Muted, PasswordInput, newPasswordForm, useZodForm } from '@portal/ui';
import { apiRequest, errorMessage, navigate, paths } from '@portal/web-core';

/**
 * /auth/reset?token=…: sets a new password with a one-time link (an administrator's, or the one
 * «Забыли пароль?» mailed).
 * The server checks the password rules and the link; its Russian message is shown under the form.
 */
export function ResetPassword() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const form = useZodForm(newPasswordForm, { password: '', confirm: '' });
  const { errors, isSubmitting } = form.formState;
  const [done, setDone] = useState<string | null>(null);

  const submit = form.handleSubmit(async ({ password }) => {
    try {
      const { message } = await apiRequest<{ message: string }>('/auth/password-reset', {
        method: 'POST',
        body: { token, password },
      });
      setDone(message);
    } catch (err) {
      form.setError('root.server', { message: errorMessage(err, 'Не удалось сменить пароль') });
    }
  });

  return (
    <AuthScreen>
      <AuthPanel>
        <h1>Новый пароль</h1>
        {done ? (
          <>
            <Muted role="status">{done}</Muted>
            <Button type="button" onClick={() => navigate(paths.signIn())}>
              Войти
            </Button>
          </>
        ) : !token ? (
          <ErrorBox>{MSG.resetLinkInvalid}</ErrorBox>
        ) : (
          <>
            <Muted>Не короче 8 символов; не из списка распространённых паролей и без имени из вашего email.</Muted>
            <AuthForm onSubmit={submit} noValidate>
              <PasswordInput label="Новый пароль" error={errors.password?.message} {...form.register('password')} />
              <PasswordInput label="Повторите пароль" error={errors.confirm?.message} {...form.register('confirm')} />
              {errors.root?.server && <ErrorBox>{errors.root.server.message}</ErrorBox>}
              <Button type="submit" disabled={isSubmitting}>
                Сохранить пароль
              </Button>
            </AuthForm>
          </>
        )}
      </AuthPanel>
    </AuthScreen>
  );
}
