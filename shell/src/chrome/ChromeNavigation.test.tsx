/** @jest-environment jsdom */
import { act, render, screen, within } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from '@portal/ui';
import { AuthProvider, authStore, navigate } from '@portal/web-core';
import { Chrome } from './Chrome';

const curator = { id: 'u2', email: 'curator@portal.local', fullName: 'Анна Смирнова', role: 'CURATOR' };

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (status: number, body: unknown) =>
  ({
    ok: status < 400,
    status,
    headers: { get: () => 'application/json' },
    json: async () => body,
    text: async () => JSON.stringify(body),
  }) as unknown as Response;

test('a curator’s header says how many attempts wait in «Проверка ответов», and names the directory «Пользователи»', async () => {
  global.fetch = jest.fn(async (url: string) => {
    if (url.endsWith('/auth/login')) return answered(200, { token: 'token-2', user: curator });
    if (url.endsWith('/consent')) return answered(200, { required: false, given: true });
    if (url.includes('/reviews?')) return answered(200, { data: [], total: 3, page: 1, limit: 1 });
    if (url.includes('/notifications')) return answered(200, { data: [], total: 0, page: 1, limit: 10, unread: 0 });
    return answered(404, { message: 'Не найдено', statusCode: 404 });
  }) as unknown as typeof fetch;
  window.history.replaceState(null, '', '/auth');
  await act(() => authStore.start());
  render(
    <ThemeProvider theme={lightTheme}>
      <AuthProvider>
        <Chrome />
      </AuthProvider>
    </ThemeProvider>,
  );
  await act(async () => {
    await authStore.login(curator.email, 'Portal-Kur-2026');
  });
  act(() => navigate('/dashboard'));

  const nav = await screen.findByRole('navigation', { name: 'Основная навигация' });
  const reviews = within(nav).getByRole('link', { name: /^Проверка ответов/ });
  expect((await within(reviews).findByTestId('reviews-waiting')).textContent).toBe('3 — 3 ответа ждут проверки');
  // Read aloud as a sentence, not as «Проверка ответов 3».
  expect(within(nav).getByRole('link', { name: /^Проверка ответов\s+— 3 ответа ждут проверки$/ })).toBe(reviews);
  expect(within(nav).getByRole('link', { name: 'Пользователи' }).getAttribute('href')).toBe('/crm/contacts');
  expect(within(nav).queryByRole('link', { name: 'Контакты' })).toBeNull();
});
