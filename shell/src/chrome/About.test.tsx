/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from '@portal/ui';
import { Versions } from './About';

/** The little of a fetch Response the dialog reads (jsdom has no Response). */
const answered = (body: unknown) => ({ ok: true, status: 200, json: async () => body }) as unknown as Response;

beforeEach(() => {
  global.fetch = jest.fn(async (url: string | URL) => {
    const address = String(url);
    if (address.endsWith('/remotes.json')) return answered({ mf_crm: '/mf/mf-crm/mf-manifest.json' });
    return answered({ name: 'x', version: '1.4.0', hash: 'a1b2c3d4e5', builtAt: '2026-12-03T09:30:00.000Z' });
  }) as unknown as typeof fetch;
});

const show = (technical: boolean) =>
  render(
    <ThemeProvider theme={lightTheme}>
      <Versions technical={technical} />
    </ThemeProvider>,
  );

test('«О системе» tells people each part by what it is, its version and build date, without folders or build hashes', async () => {
  show(false);
  const crm = await screen.findByRole('row', { name: /Организации и пользователи/ });
  expect(crm.textContent).toContain('1.4.0');
  expect(crm.textContent).toContain('03.12.2026');
  const table = screen.getByRole('table');
  expect(table.textContent).not.toMatch(/mf-|shell|a1b2c3d4e5/);
  expect(screen.queryByRole('columnheader', { name: 'Сборка' })).toBeNull();
});

test('the administrator also sees each part’s folder and build hash', async () => {
  show(true);
  const crm = await screen.findByRole('row', { name: /mf-crm/ });
  expect(crm.textContent).toContain('a1b2c3d4e5');
  expect(screen.getByRole('columnheader', { name: 'Сборка' })).toBeTruthy();
});
