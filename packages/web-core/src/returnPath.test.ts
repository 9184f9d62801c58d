import { pathAfterSignIn, safeReturnPath, signInPathFor } from './returnPath';
import { currentNavItem, navigationFor } from './routes';

const ORIGIN = 'https://portal.example.test';
const at = (path: string) => {
  const url = new URL(path, ORIGIN);
  return { pathname: url.pathname, search: url.search, hash: url.hash, origin: ORIGIN };
};

describe('the return path after signing in', () => {
  it('keeps a portal path with its query and fragment', () => {
    expect(safeReturnPath('/student/c-42', ORIGIN)).toBe('/student/c-42');
    expect(safeReturnPath('/results?status=passed#top', ORIGIN)).toBe('/results?status=passed#top');
  });

  it.each([
    ['another site without a scheme', '//evil.example/steal'],
    ['another site with a scheme', 'https://evil.example/steal'],
    ['this site written absolutely', `${ORIGIN}/dashboard`],
    ['a script', 'javascript:alert(1)'],
    ['a backslash the browser reads as a slash', '/\\evil.example'],
    ['a tab the browser drops', '/\t/evil.example'],
    ['a newline the browser drops', '/\n/evil.example'],
    ['a relative path', 'dashboard'],
    ['nothing', ''],
    ['the sign-in page itself', '/auth?next=/auth'],
    ['registration', '/register'],
    ['the landing', '/'],
    ['something absurdly long', `/${'a'.repeat(5000)}`],
  ])('ignores %s', (_what, raw) => {
    expect(safeReturnPath(raw, ORIGIN)).toBeNull();
  });

  it('remembers the page a signed-out person asked for in the sign-in address', () => {
    expect(signInPathFor(at('/student/c-42?lesson=3'))).toBe('/auth?next=%2Fstudent%2Fc-42%3Flesson%3D3');
    expect(signInPathFor(at('/'))).toBe('/auth');
  });

  it('returns to the page asked for when the person may open it, else to their home', () => {
    expect(pathAfterSignIn('CANDIDATE', at(signInPathFor(at('/student/c-42'))))).toBe('/student/c-42');
    expect(pathAfterSignIn('ADMIN', at('/auth?next=%2Fcrm%2Forgs'))).toBe('/crm/orgs');
    // A candidate cannot open the editor: home instead of «Доступ запрещён».
    expect(pathAfterSignIn('CANDIDATE', at('/auth?next=%2Feditor%2Fc-42'))).toBe('/courses');
    expect(pathAfterSignIn('CURATOR', at('/auth?next=%2F%2Fevil.example'))).toBe('/dashboard');
    expect(pathAfterSignIn('CLIENT', at('/auth?next=javascript%3Aalert(1)'))).toBe('/courses');
    expect(pathAfterSignIn('CLIENT', at('/auth'))).toBe('/courses');
  });
});

describe('the header navigation', () => {
  const labels = (role: Parameters<typeof navigationFor>[0]) => navigationFor(role).map((item) => `${item.label} ${item.href}`);
  const learning = [
    'Главная /dashboard',
    'Курсы /courses',
    'Мои назначения /courses?filter=assigned',
    'Мои программы /my-programs',
    'Мои результаты /results',
    'Сертификаты /results?section=certificates',
  ];

  it('gives learners their assignments, programs and certificates beside their courses and results', () => {
    for (const role of ['CLIENT', 'CANDIDATE'] as const) expect(labels(role)).toEqual(learning);
  });

  it('gives the manager, who also studies, the assignments report, the organizations and the users', () => {
    expect(labels('MANAGER')).toEqual([
      ...learning,
      'Назначения /assignments',
      'Программы /programs',
      'Организации /crm/orgs',
      'Пользователи /crm/contacts',
    ]);
  });

  it('gives staff everyone’s results, the answers waiting, the CRM, and the administrator the data-subject requests', () => {
    const staff = [
      'Главная /dashboard',
      'Курсы /courses',
      'Результаты /results',
      'Проверка ответов /reviews',
      'Назначения /assignments',
      'Программы /programs',
      'Организации /crm/orgs',
      'Пользователи /crm/contacts',
    ];
    expect(labels('CURATOR')).toEqual(staff);
    expect(labels('ADMIN')).toEqual([...staff, 'Запросы ПДн /crm/subject-requests']);
    expect(navigationFor('CURATOR').find((item) => item.href === '/reviews')?.count).toBe('reviewsWaiting');
  });

  it('marks the link of the page the person is on, and none on another page', () => {
    const items = navigationFor('ADMIN');
    expect(currentNavItem(items, '/courses')?.href).toBe('/courses');
    expect(currentNavItem(items, '/crm/orgs/o-1')?.href).toBe('/crm/orgs');
    expect(currentNavItem(items, '/courses/create')?.href).toBe('/courses');
    expect(currentNavItem(items, '/coursesX')).toBeNull();
    expect(currentNavItem(items, '/editor/c-1')).toBeNull();
  });

  it('marks the view of a page the address opens, and the page itself otherwise', () => {
    const items = navigationFor('CLIENT');
    expect(currentNavItem(items, '/courses', '?filter=assigned&page=2')?.label).toBe('Мои назначения');
    expect(currentNavItem(items, '/courses', '?filter=started')?.label).toBe('Курсы');
    expect(currentNavItem(items, '/results', '?section=certificates')?.label).toBe('Сертификаты');
    expect(currentNavItem(items, '/results')?.label).toBe('Мои результаты');
  });
});
