/** @jest-environment jsdom */
import { useEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from '@portal/ui';
import { AuthProvider, authStore, navigate, useAuth } from '@portal/web-core';
import { Chrome, initialsOf } from './Chrome';

const learner = { id: 'u1', email: 'client@portal.local', fullName: 'Дмитрий Соколов', role: 'CLIENT' };

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

/** The sign-in page as the landing's remote behaves: once the store has the person, it goes to their home. */
function SignInPage() {
  const { user } = useAuth();
  useEffect(() => {
    if (user) navigate('/courses', { replace: true });
  }, [user]);
  return null;
}

describe('the route guard in the header', () => {
  beforeEach(() => {
    // The server's answers: a sign-in gives a token and the learner; the consent is given.
    global.fetch = jest.fn(async (url: string) => {
      if (url.endsWith('/auth/login')) return answered(200, { token: 'token-1', user: learner });
      if (url.endsWith('/consent')) return answered(200, { required: false, given: true });
      return answered(404, { message: 'Не найдено', statusCode: 404 });
    }) as unknown as typeof fetch;
  });

  it('keeps a person who has just signed in on the page they were sent to, not back on the sign-in form', async () => {
    window.history.replaceState(null, '', '/auth');
    await act(() => authStore.start());
    // The header and the page are separate React roots, as single-spa mounts them.
    render(
      <ThemeProvider theme={lightTheme}>
        <AuthProvider>
          <Chrome />
        </AuthProvider>
      </ThemeProvider>,
    );
    render(
      <AuthProvider>
        <SignInPage />
      </AuthProvider>,
    );

    await act(async () => {
      await authStore.login(learner.email, 'Portal-Kli-2026');
    });

    expect(window.location.pathname + window.location.search).toBe('/courses');
    const account = await screen.findByRole('navigation', { name: 'Учётная запись' });
    expect(account.textContent).toContain('Дмитрий Соколов · Клиент');
  });
});

test('a phone’s header names the person by the first letters of the first two words of their name', () => {
  expect(initialsOf('Борис Орлов')).toBe('БО');
  expect(initialsOf('  анна   мария Смирнова ')).toBe('АМ');
  expect(initialsOf('Ёжик')).toBe('Ё');
});
