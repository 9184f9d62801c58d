import { useEffect, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import { APPLY_FOR_ROLES, MSG, ROLE_LABELS, type Role } from '@portal/contracts';
import { Button, ErrorBox, Input, Label, Muted, Select } from '@portal/ui';
import { navigate, pathAfterSignIn, paths, useAuth, useDarkMode } from '@portal/web-core';
import { usePresets, type PresetAccount } from '../../presets';

type Mode = 'login' | 'register';
const REGISTER_ROLES: Role[] = ['CLIENT', 'CANDIDATE', 'CURATOR'];

/** /auth: sign-in and registration in one form with a mode toggle (spec section 2). */
export function Auth() {
  const { user, error, login, register, clearError } = useAuth();
  const [dark, toggleDark] = useDarkMode();
  const presets = usePresets();
  const [mode, setMode] = useState<Mode>('login');
  const [fading, setFading] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ email: '', password: '', fullName: '', role: 'CANDIDATE' as Role, confirm: '' });
  const applied = useRef(false);

  // Signed in (now or already): back to the page asked for before being sent here (?next=), else home.
  // The one place that leaves /auth, so a sign-in never races a second navigation.
  useEffect(() => {
    // A registration that filed an application goes to the dashboard, which says it is pending.
    if (user) navigate(applied.current ? paths.dashboard() : pathAfterSignIn(user.role, window.location), { replace: true });
  }, [user]);

  const switchMode = (next: Mode) => {
    setFading(true);
    clearError();
    window.setTimeout(() => {
      setMode(next);
      setFading(false);
    }, 200);
  };

  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.email.trim() || !form.password) return window.alert(MSG.fillAllFields);
    if (mode === 'register') {
      if (!form.fullName.trim()) return window.alert(MSG.enterName);
      if (form.password !== form.confirm) return window.alert(MSG.passwordsMismatch);
    }
    setBusy(true);
    try {
      if (mode === 'login') {
        await login(form.email.trim(), form.password);
      } else {
        applied.current = APPLY_FOR_ROLES.includes(form.role);
        await register({ email: form.email.trim(), password: form.password, fullName: form.fullName.trim(), role: form.role });
      }
    } catch {
      /* the store holds the message shown above the form */
    } finally {
      setBusy(false);
    }
  };

  const choosePreset = (preset: PresetAccount) => {
    setForm((f) => ({ ...f, email: preset.email, password: preset.password }));
    setPickerOpen(false);
    if (mode !== 'login') switchMode('login');
  };

  const guest = presets.data?.find((p) => p.guest);
  const continueAsGuest = async () => {
    if (!guest) return;
    setBusy(true);
    try {
      await login(guest.email, guest.password);
    } catch {
      /* shown by the store */
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthScreen>
      <AuthPanel $fading={fading}>
        <h1>{mode === 'login' ? 'Вход в систему' : 'Регистрация'}</h1>
        <Muted>{mode === 'login' ? 'Войдите, чтобы продолжить обучение' : 'Создайте учётную запись'}</Muted>
        {error && <ErrorBox data-testid="auth-error">{error}</ErrorBox>}
        <AuthForm onSubmit={submit} noValidate>
          {mode === 'register' && (
            <Label>
              Полное имя
              <Input name="fullName" autoComplete="name" value={form.fullName} onChange={set('fullName')} />
            </Label>
          )}
          <Label>
            Email
            <Input name="email" type="email" autoComplete="email" value={form.email} onChange={set('email')} />
          </Label>
          <Label>
            Пароль
            <Input
              name="password"
              type="password"
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              value={form.password}
              onChange={set('password')}
            />
          </Label>
          {mode === 'register' && (
            <>
              <Label>
                Подтвердите пароль
                <Input
                  name="confirm"
                  type="password"
                  autoComplete="new-password"
                  value={form.confirm}
                  onChange={set('confirm')}
                />
              </Label>
              <Label>
                Роль
                <Select name="role" value={form.role} onChange={set('role')}>
                  {REGISTER_ROLES.map((role) => (
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
            </>
          )}
          <Button type="submit" disabled={busy}>
            {mode === 'login' ? 'Войти' : 'Зарегистрироваться'}
          </Button>
        </AuthForm>
        <Row>
          <Button $variant="link" type="button" onClick={() => switchMode(mode === 'login' ? 'register' : 'login')}>
            {mode === 'login' ? 'Нет аккаунта? Зарегистрироваться' : 'Уже есть аккаунт? Войти'}
          </Button>
        </Row>
        {!!presets.data?.length && (
          <Row>
            <Button $variant="outline" type="button" onClick={() => setPickerOpen((o) => !o)} aria-expanded={pickerOpen}>
              Выбрать тестовый аккаунт
            </Button>
            {guest && (
              <Button $variant="link" type="button" onClick={continueAsGuest} disabled={busy}>
                Продолжить как гость
              </Button>
            )}
          </Row>
        )}
        {pickerOpen && (
          <Picker aria-label="Тестовые аккаунты">
            {presets.data
              ?.filter((p) => !p.guest)
              .map((preset) => (
                <li key={preset.email}>
                  <PresetButton type="button" onClick={() => choosePreset(preset)}>
                    <span>
                      <strong>{ROLE_LABELS[preset.role]}</strong> · {preset.fullName}
                    </span>
                    <small>{preset.description}</small>
                  </PresetButton>
                </li>
              ))}
          </Picker>
        )}
      </AuthPanel>
      <ThemeToggle
        $variant="outline"
        $size="icon"
        type="button"
        onClick={toggleDark}
        aria-label={dark ? 'Включить светлую тему' : 'Включить тёмную тему'}
      >
        {dark ? '☀' : '☾'}
      </ThemeToggle>
    </AuthScreen>
  );
}

const Row = styled.div`
  display: flex;
  gap: 12px;
  align-items: center;
  flex-wrap: wrap;
  justify-content: center;
`;
const Picker = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
`;
const PresetButton = styled.button`
  width: 100%;
  text-align: left;
  display: grid;
  gap: 2px;
  padding: 10px 12px;
  cursor: pointer;
  font: inherit;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 8px;
  small {
    color: ${({ theme }) => theme.colors.muted};
  }
`;
const ThemeToggle = styled(Button)`
  position: fixed;
  left: 16px;
  bottom: 16px;
`;
