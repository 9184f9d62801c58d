import { useState, type FormEvent } from 'react';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { APPLY_FOR_ROLES, MSG, ROLE_LABELS, type Role } from '@portal/contracts';
import { Button, ErrorBox, Input, Label, Muted, Select } from '@portal/ui';
import { navigate, paths, useAuth } from '@portal/web-core';

const ROLES: Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR', 'ADMIN'];
const Required = () => <span aria-hidden="true"> *</span>;

/** /register: the separate form, where ADMIN is offered with the administrator password. */
export function Register() {
  const { error, register } = useAuth();
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({
    fullName: '',
    email: '',
    password: '',
    confirm: '',
    role: 'CANDIDATE' as Role,
    adminPassword: '',
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.email.trim() || !form.password) return window.alert(MSG.fillAllFields);
    if (!form.fullName.trim()) return window.alert(MSG.enterName);
    if (form.password !== form.confirm) return window.alert(MSG.passwordsMismatch);
    if (form.role === 'ADMIN' && !form.adminPassword) return window.alert(MSG.adminPasswordRequired);
    setBusy(true);
    try {
      await register({
        email: form.email.trim(),
        password: form.password,
        fullName: form.fullName.trim(),
        role: form.role,
        ...(form.role === 'ADMIN' ? { adminPassword: form.adminPassword } : {}),
      });
      // An application (CURATOR) is pending: the dashboard says so; everyone else starts with the courses.
      navigate(APPLY_FOR_ROLES.includes(form.role) ? paths.dashboard() : paths.courses());
    } catch {
      /* shown above the form */
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthScreen>
      <AuthPanel $wide>
        <h1>Регистрация</h1>
        <Muted>Поля, отмеченные *, обязательны</Muted>
        {error && <ErrorBox>{error}</ErrorBox>}
        <AuthForm onSubmit={submit} noValidate>
          <Label>
            <span>
              Полное имя
              <Required />
            </span>
            <Input name="fullName" required value={form.fullName} onChange={set('fullName')} />
          </Label>
          <Label>
            <span>
              Email
              <Required />
            </span>
            <Input name="email" type="email" required value={form.email} onChange={set('email')} />
          </Label>
          <Label>
            <span>
              Пароль
              <Required />
            </span>
            <Input
              name="password"
              type="password"
              required
              autoComplete="new-password"
              value={form.password}
              onChange={set('password')}
            />
          </Label>
          <Label>
            <span>
              Подтвердите пароль
              <Required />
            </span>
            <Input
              name="confirm"
              type="password"
              required
              autoComplete="new-password"
              value={form.confirm}
              onChange={set('confirm')}
            />
          </Label>
          <Label>
            <span>
              Роль
              <Required />
            </span>
            <Select name="role" value={form.role} onChange={set('role')}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </Select>
          </Label>
          {APPLY_FOR_ROLES.includes(form.role) && (
            <Muted>
              Роль «{ROLE_LABELS[form.role]}» назначает администратор: будет отправлена заявка, а до её одобрения вам доступно
              обучение.
            </Muted>
          )}
          {form.role === 'ADMIN' && (
            <Label>
              <span>
                Пароль администратора
                <Required />
              </span>
              <Input name="adminPassword" type="password" value={form.adminPassword} onChange={set('adminPassword')} />
            </Label>
          )}
          <Button type="submit" disabled={busy}>
            Зарегистрироваться
          </Button>
          {process.env.NODE_ENV !== 'production' && (
            <Button
              type="button"
              $variant="secondary"
              onClick={() =>
                setForm({
                  fullName: 'Администратор Портала',
                  email: 'admin2@portal.local',
                  password: 'Portal-Glav-2026',
                  confirm: 'Portal-Glav-2026',
                  role: 'ADMIN',
                  adminPassword: '',
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
