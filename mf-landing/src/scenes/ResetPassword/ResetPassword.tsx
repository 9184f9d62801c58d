import { useState, type FormEvent } from 'react';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { MSG } from '@portal/contracts';
import { Button, ErrorBox, Muted, PasswordInput, newPasswordProblem } from '@portal/ui';
import { apiRequest, errorMessage, navigate, paths } from '@portal/web-core';

/**
 * /auth/reset?token=…: sets a new password with a one-time link (an administrator's, or the one
 * «Забыли пароль?» mailed).
 * The server checks the password rules and the link; its Russian message is shown under the form.
 */
export function ResetPassword() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [form, setForm] = useState({ password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.password) return setError(MSG.fillAllFields);
    const problem = newPasswordProblem(form.password, form.confirm);
    if (problem) return setError(problem.message);
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
              <PasswordInput label="Новый пароль" name="password" value={form.password} onValue={set('password')} />
              <PasswordInput label="Повторите пароль" name="confirm" value={form.confirm} onValue={set('confirm')} />
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
