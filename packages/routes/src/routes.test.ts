import { ADMIN_ROLES, CRM_ROLES, ROLES, STAFF_ROLES, STUDY_ROLES } from '@portal/contracts/roles';
import { REMOTES, ROUTES, decide, firstReadsOf, paths, remoteShows, resolve } from './index';

const where = (pathname: string) => {
  const found = resolve(pathname);
  return found && { remote: found.route.remote, scene: found.route.scene, access: found.route.access, params: found.params };
};

describe('the route table', () => {
  it('resolves every route of the route table to its remote, scene and roles', () => {
    // [path, remote, scene, who, params]
    const spec = [
      ['/', 'mf_landing', 'landing', 'public', {}],
      ['/auth', 'mf_landing', 'signIn', 'public', {}],
      ['/register', 'mf_landing', 'register', 'public', {}],
      ['/demo/lesson-editor', 'mf_editor', 'demoLessonEditor', 'public', {}],
      ['/demo/block-editor', 'mf_editor', 'demoBlockEditor', 'public', {}],
      ['/demo/course-editor', 'mf_editor', 'demoCourseEditor', 'public', {}],
      ['/dashboard', 'mf_dashboard', 'dashboard', ROLES, {}],
      ['/courses', 'mf_courses', 'courseList', ROLES, {}],
      ['/courses/create', 'mf_courses', 'newCourse', STAFF_ROLES, {}],
      ['/courses/new', 'mf_courses', 'newCourse', STAFF_ROLES, {}],
      ['/editor/64b7f0c2a1b2c3d4e5f60718', 'mf_editor', 'courseEditor', STAFF_ROLES, { courseId: '64b7f0c2a1b2c3d4e5f60718' }],
      ['/lesson/new/m1', 'mf_editor', 'newLesson', STAFF_ROLES, { moduleId: 'm1' }],
      ['/lesson/new', 'mf_editor', 'newLesson', STAFF_ROLES, {}],
      ['/lesson-editor-demo', 'mf_editor', 'demoLessonEditor', STAFF_ROLES, {}],
      // Staff open study mode as a preview and read everyone's results: every signed-in role.
      ['/student/c-1', 'mf_player', 'study', ROLES, { courseId: 'c-1' }],
      ['/results', 'mf_player', 'results', ROLES, {}],
      // MANAGER manages organizations and users (the preset account's description).
      ['/crm/orgs', 'mf_crm', 'organizations', CRM_ROLES, {}],
      ['/crm/orgs/o-7', 'mf_crm', 'organization', CRM_ROLES, { id: 'o-7' }],
      ['/crm/contacts', 'mf_crm', 'contacts', CRM_ROLES, {}],
      ['/crm/subject-requests', 'mf_crm', 'subjectRequests', ADMIN_ROLES, {}],
      ['/crm/staff-import', 'mf_crm', 'staffImport', STAFF_ROLES, {}],
      ['/crm/directory-sync', 'mf_crm', 'directorySync', ADMIN_ROLES, {}],
    ] as const;
    for (const [path, remote, scene, access, params] of spec)
      expect({ path, ...where(path) }).toEqual({ path, remote, scene, access, params });
  });

  it('takes roles from contracts/roles alone', () => {
    for (const { access } of Object.values(ROUTES))
      expect([ROLES, STAFF_ROLES, CRM_ROLES, ADMIN_ROLES, STUDY_ROLES, 'public']).toContain(access);
  });

  it('accepts a trailing slash and decodes parameters', () => {
    expect(where('/editor/abc/')?.params).toEqual({ courseId: 'abc' });
    expect(where('/lesson/new/')?.scene).toBe('newLesson');
    expect(where('/crm/orgs/')?.scene).toBe('organizations');
    expect(where('/student/%D0%BA%D1%83%D1%80%D1%81')?.params).toEqual({ courseId: 'курс' });
  });

  it('sends an unknown path to not found', () => {
    for (const path of [
      '/nowhere',
      '/editor',
      '/editor/a/b',
      '/crm/orgs/1/2',
      '/crm/orgs/%E0', // a malformed escape
      '/crm/unknown',
      '/demo/unknown',
      '/coursesX',
      '//editor/a',
      '/Courses',
    ]) {
      expect({ path, found: resolve(path) }).toEqual({ path, found: null });
      expect(decide(path, { status: 'ready', role: 'ADMIN' })).toEqual({ kind: 'unknown' });
    }
  });

  it('builds every path that it resolves, encoding the parameters', () => {
    expect(paths.editor('a b/c')).toBe('/editor/a%20b%2Fc');
    expect(where(paths.editor('a b/c'))?.params).toEqual({ courseId: 'a b/c' });
    expect(paths.newLesson('m1')).toBe('/lesson/new/m1');
    expect(paths.newLesson()).toBe('/lesson/new');
    expect(paths.organization('o-7')).toBe('/crm/orgs/o-7');
    expect(paths.landing()).toBe('/');
    for (const name of Object.keys(ROUTES) as Array<keyof typeof ROUTES>)
      expect(resolve((paths[name] as (...args: string[]) => string)('x1', 'x2'))?.name).toBe(name);
  });

  it('lets a remote show only its own routes, and only to whom the guard admits', () => {
    const admin = { status: 'ready', role: 'ADMIN' } as const;
    const candidate = { status: 'ready', role: 'CANDIDATE' } as const;
    expect(remoteShows('mf_editor', '/editor/c-1', admin)).toBe(true);
    expect(remoteShows('mf_editor', '/editor/c-1', candidate)).toBe(false);
    expect(remoteShows('mf_player', '/editor/c-1', admin)).toBe(false);
    expect(remoteShows('mf_landing', '/', { status: 'loading', role: null })).toBe(true);
    expect(remoteShows('mf_courses', '/courses', { status: 'loading', role: null })).toBe(false);
    // Every remote shows some route.
    for (const remote of Object.keys(REMOTES)) expect(Object.values(ROUTES).some((route) => route.remote === remote)).toBe(true);
  });

  it('names the reads a study page makes first, so the shell can start them with the page', () => {
    expect(firstReadsOf('/student/c-1', '')).toEqual(['/courses/c-1/outline']);
    // The lesson the address names comes with the outline; its id is encoded as the player encodes it.
    expect(firstReadsOf('/student/c-1/', '?lesson=l%202')).toEqual(['/courses/c-1/outline', '/blocks/l%202']);
    expect(firstReadsOf('/student/%D0%BA', '?lesson=')).toEqual(['/courses/%D0%BA/outline']);
    // Pages without first reads, and unknown ones, start nothing.
    expect(firstReadsOf('/courses', '?lesson=x')).toEqual([]);
    expect(firstReadsOf('/nowhere', '')).toEqual([]);
  });

  it('answers a path asked for again alike, read only, and stays right after many other paths', () => {
    const first = resolve('/student/c-1');
    expect(resolve('/student/c-1')).toBe(first);
    expect(Object.isFrozen(first?.params)).toBe(true);
    for (let i = 0; i < 500; i++) expect(resolve(`/student/course-${i}`)?.params).toEqual({ courseId: `course-${i}` });
    expect(resolve('/student/c-1')).toEqual(first);
    expect(resolve('/nowhere')).toBeNull();
    expect(resolve('/nowhere')).toBeNull();
  });
});
