import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthResponse, PasswordChangeInput, RegisterInput, User } from '@portal/contracts';
import { TOKEN_KEY, apiRequest, errorMessage, getToken, onUnauthorized, setToken } from './api';

export interface AuthState {
  status: 'loading' | 'ready';
  user: User | null;
  error: string | null;
}

type Listener = () => void;

/**
 * One auth state for the whole page: this module is a shared singleton, so every
 * micro-frontend reads and changes the same store.
 */
class AuthStore {
  private state: AuthState = { status: 'loading', user: null, error: null };
  private readonly listeners = new Set<Listener>();
  private started: Promise<void> | null = null;

  constructor() {
    // Any 401 (the session ended: logout elsewhere, a password or role change) means signed out.
    onUnauthorized(() => this.set({ user: null }));
    // Another tab of this portal signed out (or in as someone else): follow it at once.
    if (typeof window !== 'undefined') {
      window.addEventListener('storage', (event) => {
        if (event.key !== TOKEN_KEY && event.key !== null) return;
        if (!getToken()) this.set({ user: null, status: 'ready' });
        else if (event.newValue !== event.oldValue) void this.reload();
      });
    }
  }

  /** Reads the profile behind the stored token again (another tab signed in). */
  private async reload(): Promise<void> {
    await this.readProfile().catch(() => this.set({ status: 'ready', user: null }));
  }

  private async readProfile(): Promise<void> {
    const { user } = await apiRequest<{ user: User }>('/auth/profile');
    this.set({ status: 'ready', user });
  }

  getSnapshot = (): AuthState => this.state;
  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<AuthState>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((l) => l());
  }

  /** On load: a stored token fetches the profile; on failure the token is dropped. */
  start(): Promise<void> {
    this.started ??= (async () => {
      if (!getToken()) return this.set({ status: 'ready' });
      await this.readProfile().catch(() => {
        setToken(null);
        this.set({ status: 'ready', user: null });
      });
    })();
    return this.started;
  }

  login(email: string, password: string): Promise<User> {
    return this.signIn('/auth/login', { email, password }, 'Произошла ошибка при входе');
  }

  register(input: RegisterInput): Promise<User> {
    return this.signIn('/auth/register', input, 'Произошла ошибка при регистрации');
  }

  /** The corporate sign-in's last step: the one-time code /auth was sent back with, for a session. */
  signInWithCode(code: string): Promise<User> {
    return this.signIn('/auth/oidc/session', { code }, 'Не удалось войти через корпоративный аккаунт');
  }

  /** Signing in and registering answer alike: a token and the person, or the reason shown on the form. */
  private async signIn(path: string, body: unknown, failure: string): Promise<User> {
    this.set({ error: null });
    try {
      const answer = await apiRequest<AuthResponse>(path, { method: 'POST', body });
      setToken(answer.token);
      this.set({ user: answer.user, status: 'ready' });
      return answer.user;
    } catch (err) {
      this.set({ error: errorMessage(err, failure) });
      throw err;
    }
  }

  /**
   * Ends this session. A session opened through the company's provider also ends there when the
   * provider offers it (RP-initiated logout): the answer is then the address to send the browser to.
   */
  async logout(): Promise<string | null> {
    let provider: string | null = null;
    if (getToken()) {
      provider = await apiRequest<{ url: string | null }>('/auth/oidc/logout-url')
        .then((answer) => answer.url)
        .catch(() => null);
      await apiRequest('/auth/logout', { method: 'POST' }).catch(() => undefined);
    }
    setToken(null);
    this.set({ user: null, error: null });
    return provider;
  }

  /** «Выйти на всех устройствах»: ends every session of the person, this one too. */
  async logoutEverywhere(): Promise<void> {
    await apiRequest('/auth/logout-all', { method: 'POST' });
    setToken(null);
    this.set({ user: null, error: null });
  }

  /** Changes the password; the server ends the other sessions and keeps this one. */
  async changePassword(input: PasswordChangeInput): Promise<string> {
    const { message } = await apiRequest<{ message: string }>('/auth/password', { method: 'POST', body: input });
    return message;
  }

  clearError() {
    if (this.state.error) this.set({ error: null });
  }
}

export const authStore = new AuthStore();

const AuthContext = createContext<AuthStore | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  return <AuthContext.Provider value={authStore}>{children}</AuthContext.Provider>;
}

export function useAuth() {
  const store = useContext(AuthContext);
  if (!store) throw new Error('useAuth must be used within an AuthProvider');
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return {
    ...state,
    isAuthenticated: !!state.user,
    login: (email: string, password: string) => store.login(email, password),
    register: (input: RegisterInput) => store.register(input),
    signInWithCode: (code: string) => store.signInWithCode(code),
    logout: () => store.logout(),
    logoutEverywhere: () => store.logoutEverywhere(),
    changePassword: (input: PasswordChangeInput) => store.changePassword(input),
    clearError: () => store.clearError(),
  };
}
