import { useState, type FormEvent } from 'react';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { MSG } from '@portal/contracts';
import { Button, ErrorBox, Input, Label, Muted } from '@portal/ui';
import { apiRequest, errorMessage, navigate, paths } from '@portal/web-core';

/**
 * /auth/reset?token=…: sets a new password with the one-time link an administrator handed over.
 * The server checks the password rules and the link; its Russian message is shown under the form.
 */
export function ResetPassword() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [form, setForm] = useState({ password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.password) return setError(MSG.fillAllFields);
    if (form.password.length < 8) return setError(MSG.passwordTooShort);
    if (form.password !== form.confirm) return setError(MSG.passwordsMismatch);
    setBusy(true);
    setError(null);
    try {
      const { message } = await apiRequest<{ message: string }>('/auth/password-reset', {
        method: 'POST',
        body: { token, password: form.password },
      });
      setDone(message);
    } catch (err) {
      setError(errorMessage(err, 'Не удалось сменить пароль'));
    } finally {
      setBusy(false);
    }
  };

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
              <Label>
                Новый пароль
                <Input
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  value={form.password}
                  onChange={set('password')}
                />
              </Label>
              <Label>
                Повторите пароль
                <Input
                  name="confirm"
                  type="password"
                  autoComplete="new-password"
                  value={form.confirm}
                  onChange={set('confirm')}
                />
              </Label>
              {error && <ErrorBox>{error}</ErrorBox>}
              <Button type="submit" disabled={busy}>
                Сохранить пароль
              </Button>
            </AuthForm>
          </>
        )}
      </AuthPanel>
    </AuthScreen>
  );
}
