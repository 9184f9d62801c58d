/** @jest-environment jsdom */
import { downloadExport, fetchPage } from './lists';

/** The little of a fetch Response the client reads (jsdom has no Response). */
const answered = (body: unknown) =>
  ({
    ok: true,
    status: 200,
    headers: { get: () => 'application/json' },
    json: async () => body,
    blob: async () => new Blob([String(body)]),
  }) as unknown as Response;

describe('the paged-list client', () => {
  const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
  beforeEach(() => {
    fetchMock.mockReset();
    global.fetch = fetchMock as unknown as typeof fetch;
  });

  it('asks for one page with its size and the filters given, an empty filter left out', async () => {
    const page = { data: [{ id: 'u1' }], page: 2, limit: 100, total: 101 };
    fetchMock.mockResolvedValue(answered(page));

    const answer = await fetchPage<{ id: string }>('/users', { page: 2, limit: 100, search: '', role: 'CURATOR' });

    expect(answer).toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][0]).toBe('/api/users?page=2&limit=100&role=CURATOR');
  });

  it('downloads an export as the filters select it, in the format asked for and the reader’s time zone', async () => {
    fetchMock.mockResolvedValue(answered('ФИО;Email\n'));
    URL.createObjectURL = jest.fn(() => 'blob:users');
    URL.revokeObjectURL = jest.fn();
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(this: HTMLAnchorElement) {
      clicked.push(this.download);
    });

    await downloadExport('/users/export', 'users', 'xlsx', { search: 'Иван', department: '' });

    const url = new URL(fetchMock.mock.calls[0][0], 'https://portal.example.ru');
    expect(url.pathname).toBe('/api/users/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'Иван',
      format: 'xlsx',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(clicked).toEqual(['users.xlsx']);
  });
});
