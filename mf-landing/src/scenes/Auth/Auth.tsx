import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { AuthForm, AuthPanel, AuthScreen } from '../../components/AuthFrame';
import {
  APPLY_FOR_ROLES,
  CONSENT_DOCUMENT,
  ROLE_LABELS,
  SELF_REGISTER_ROLES,
  SSO_ERRORS,
  loginSchema,
  passwordResetRequestSchema,
  type CorporateSignIn,
  type SsoErrorCode,
} from '@portal/contracts';
import { Button, ConsentCheck, ErrorBox, Field, Input, Muted, PlainList, useZodForm, withQueries } from '@portal/ui';
import {
  API_BASE,
  apiRequest,
  errorMessage,
  navigate,
  pathAfterSignIn,
  paths,
  safeReturnPath,
  useAuth,
  useDarkMode,
} from '@portal/web-core';
import { usePresets, type PresetAccount } from '../../presets';
import { emptyRegistration, registrationForm, type RegistrationValues } from '../../forms';
import { AccountFields, CredentialFields } from '../../components/AccountFields';
import { RoleField } from '../../components/RoleField';

type Mode = 'login' | 'register' | 'forgot';
const HEADINGS: Record<Mode, [string, string]> = {
  login: ['Вход в систему', 'Войдите, чтобы продолжить обучение'],
  register: ['Регистрация', 'Создайте учётную запись'],
  forgot: ['Восстановление пароля', 'Укажите email учётной записи: мы пришлём на него одноразовую ссылку для смены пароля'],
};

/** The message of `?ssoError=` (a code the auth service sent the browser back with), if any. */
const ssoErrorOf = (search: string): string | null => {
  const code = new URLSearchParams(search).get('ssoError');
  if (code === null) return null;
  return Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : SSO_ERRORS.rejected;
};

/** Whether the company's provider signs people in here, and who may still use a password. */
function useCorporateSignIn(): CorporateSignIn | null {
  const [settings, setSettings] = useState<CorporateSignIn | null>(null);
  useEffect(() => {
    let live = true;
    apiRequest<CorporateSignIn>('/auth/oidc')
      .then((answer) => live && setSettings(answer))
      // Unknown: the password form stays, as before the corporate sign-in existed.
      .catch(() => live && setSettings({ enabled: false, displayName: '', localLogin: 'all' }));
    return () => {
      live = false;
    };
  }, []);
  return settings;
}

/** The provider's login page: the auth service sends the browser there, and back to /auth with a code. */
const startCorporateSignIn = () => {
  const back = safeReturnPath(new URLSearchParams(window.location.search).get('next'), window.location.origin);
  window.location.assign(`${API_BASE}/auth/oidc/start${back ? `?${new URLSearchParams({ returnTo: back })}` : ''}`);
};

/** /auth: sign-in and registration in one form with a mode toggle (login ↔ register). */
function SignIn() {
  const { user, error, login, register, signInWithCode, clearError } = useAuth();
  const corporate = useCorporateSignIn();
  const [ssoError, setSsoError] = useState(() => ssoErrorOf(window.location.search));
  const exchanged = useRef(false);
  const [dark, toggleDark] = useDarkMode();
  const presets = usePresets();
  const [mode, setMode] = useState<Mode>('login');
  const [fading, setFading] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // What the fields start with: a chosen preset fills them; the other mode keeps what was typed.
  const [initial, setInitial] = useState({ email: '', password: '', version: 0 });
  const applied = useRef(false);

  // Signed in (now or already): back to the page asked for before being sent here (?next=), else home.
  // The one place that leaves /auth, so a sign-in never races a second navigation.
  useEffect(() => {
    // A registration that filed an application goes to the dashboard, which says it is pending.
    if (user) navigate(applied.current ? paths.dashboard() : pathAfterSignIn(user.role, window.location), { replace: true });
  }, [user]);

  // Back from the provider with a one-time code: exchanged once for a session (the effect above then
  // leaves /auth as after a password sign-in; the store shows a refusal above the form).
  useEffect(() => {
    const code = new URLSearchParams(window.location.search).get('sso');
    if (!code || exchanged.current) return;
    exchanged.current = true;
    void signInWithCode(code).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  const switchMode = (next: Mode) => {
    setFading(true);
    clearError();
    window.setTimeout(() => {
      setMode(next);
      setFading(false);
    }, 200);
  };

  /** A sign-in or a registration, the forms busy meanwhile; a failure's message is the store's, shown above the form. */
  const whileBusy = async (send: () => Promise<unknown>) => {
    setSsoError(null);
    setBusy(true);
    try {
      await send();
    } catch {
      /* the store holds the message shown above the form */
    } finally {
      setBusy(false);
    }
  };
  const signIn = (email: string, password: string) => whileBusy(() => login(email, password));
  const signUp = (values: RegistrationValues) => {
    const role = values.role ?? 'CANDIDATE';
    applied.current = APPLY_FOR_ROLES.includes(role);
    return whileBusy(() =>
      register({
        email: values.email,
        password: values.password,
        fullName: values.fullName,
        role,
        consentVersion: CONSENT_DOCUMENT.version,
      }),
    );
  };

  const choosePreset = (preset: PresetAccount) => {
    setInitial((f) => ({ email: preset.email, password: preset.password, version: f.version + 1 }));
    setPickerOpen(false);
    if (mode !== 'login') switchMode('login');
  };

  // Who may still use a password (LOCAL_LOGIN): with anything but «all», no registration, no
  // «Забыли пароль?» and no demo accounts; with «none», no password form at all.
  const passwords = corporate?.localLogin ?? 'all';
  const selfService = passwords === 'all';

  const guest = presets.data?.find((p) => p.guest);
  const continueAsGuest = () => guest && whileBusy(() => login(guest.email, guest.password));

  return (
    <AuthScreen>
      <AuthPanel $fading={fading}>
        <h1>{HEADINGS[mode][0]}</h1>
        <Muted>{HEADINGS[mode][1]}</Muted>
        {(error ?? ssoError) && <ErrorBox data-testid="auth-error">{error ?? ssoError}</ErrorBox>}
        {mode === 'login' && corporate?.enabled && (
          <ProviderButton type="button" onClick={startCorporateSignIn} data-testid="corporate-sign-in">
            Войти через {corporate.displayName}
          </ProviderButton>
        )}
        {mode === 'login' && corporate?.enabled && passwords !== 'none' && (
          <Muted>{passwords === 'admins' ? 'Вход по паролю — только для администраторов' : 'или по email и паролю'}</Muted>
        )}
        {mode === 'login' ? (
          passwords !== 'none' && (
            <SignInFields key={`login-${initial.version}`} initial={initial} busy={busy} onSubmit={signIn} />
          )
        ) : mode === 'register' ? (
          <RegisterFields initial={initial} busy={busy} onSubmit={signUp} />
        ) : (
          <ForgotFields email={initial.email} />
        )}
        {selfService && (
          <Row>
            {mode === 'login' && (
              <Button $variant="link" type="button" onClick={() => switchMode('forgot')}>
                Забыли пароль?
              </Button>
            )}
            <Button $variant="link" type="button" onClick={() => switchMode(mode === 'login' ? 'register' : 'login')}>
              {mode === 'login'
                ? 'Нет аккаунта? Зарегистрироваться'
                : mode === 'register'
                  ? 'Уже есть аккаунт? Войти'
                  : 'Вспомнили пароль? Войти'}
            </Button>
          </Row>
        )}
        {selfService && !!presets.data?.length && (
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
          <PlainList aria-label="Тестовые аккаунты">
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
          </PlainList>
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

/** What either form takes: the email and password it starts with, whether a request is under way, where its values go. */
interface FieldsProps<Submit> {
  initial: { email: string; password: string };
  busy: boolean;
  onSubmit: Submit;
}

function SignInFields({ initial, busy, onSubmit }: FieldsProps<(email: string, password: string) => Promise<void>>) {
  const form = useZodForm(loginSchema, { email: initial.email, password: initial.password });
  const { errors } = form.formState;
  return (
    <AuthForm onSubmit={form.handleSubmit((v) => onSubmit(v.email, v.password))} noValidate>
      <CredentialFields email={form.register('email')} password={form.register('password')} errors={errors} />
      <Button type="submit" disabled={busy}>
        Войти
      </Button>
    </AuthForm>
  );
}

function RegisterFields({ initial, busy, onSubmit }: FieldsProps<(values: RegistrationValues) => Promise<void>>) {
  const form = useZodForm(registrationForm, { ...emptyRegistration(), email: initial.email, password: initial.password });
  return (
    <AuthForm onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <AccountFields form={form} />
      <RoleField form={form} roles={SELF_REGISTER_ROLES} />
      <ConsentCheck error={form.formState.errors.consent?.message} {...form.register('consent')} />
      <Button type="submit" disabled={busy}>
        Зарегистрироваться
      </Button>
    </AuthForm>
  );
}

/**
 * «Забыли пароль?»: the email to mail a one-time link to. The server answers the same whether an
 * account has it or not, and the page says what it said.
 */
function ForgotFields({ email }: { email: string }) {
  const form = useZodForm(passwordResetRequestSchema, { email });
  const { errors, isSubmitting } = form.formState;
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      setSent((await apiRequest<{ message: string }>('/auth/forgot-password', { method: 'POST', body: values })).message);
    } catch (err) {
      setFailure(errorMessage(err, 'Не удалось отправить ссылку. Попробуйте ещё раз'));
    }
  });
  if (sent) return <Muted role="status">{sent}</Muted>;
  return (
    <AuthForm onSubmit={submit} noValidate>
      {failure && <ErrorBox>{failure}</ErrorBox>}
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </Field>
      <Button type="submit" disabled={isSubmitting}>
        Отправить ссылку
      </Button>
    </AuthForm>
  );
}

/** The provider's name may be long («Войти через Keycloak АО «Северная верфь»»): it wraps, never widens a phone's page. */
const ProviderButton = styled(Button)`
  width: 100%;
  height: auto;
  min-height: 44px;
  white-space: normal;
  text-align: center;
`;
const Row = styled.div`
  display: flex;
  gap: 12px;
  align-items: center;
  flex-wrap: wrap;
  justify-content: center;
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

/** The sign-in page (its preset accounts come through the query cache, which only this chunk of the landing loads). */
export const Auth = withQueries(SignIn);
