import { ADMIN_ROLES, CRM_ROLES, RESULTS_ALL_ROLES, ROLES, STAFF_ROLES, STUDY_ROLES, type Role } from '@portal/contracts/roles';

/** The micro-frontends: federation scope → the folder it is built in (and served under, /mf/<folder>/). */
export const REMOTES = {
  mf_landing: 'mf-landing',
  mf_courses: 'mf-courses',
  mf_editor: 'mf-editor',
  mf_player: 'mf-player',
  mf_crm: 'mf-crm',
  mf_dashboard: 'mf-dashboard',
} as const;

export type RemoteName = keyof typeof REMOTES;

/** Who may open a route: anyone (no sign-in), or the signed-in people of these roles. */
export type Access = 'public' | readonly Role[];

export interface RouteDefinition {
  /** `/editor/:courseId`; a last parameter may be optional (`/lesson/new/:moduleId?`). A trailing slash is accepted. */
  path: string;
  remote: RemoteName;
  /** The name the remote's root renders the route with; routes of one remote may share a scene. */
  scene: string;
  access: Access;
  /**
   * The API reads (paths under /api) the scene makes first, from the route's parameters and the
   * address's query: the shell starts them as the page opens, while the remote's files are still on
   * their way, and the scene's own call takes the answer (web-core's startEarly).
   */
  firstReads?: (params: Readonly<Record<string, string>>, query: URLSearchParams) => string[];
}

const enc = encodeURIComponent;

/** Study mode's first reads: the course's outline, and the lesson the address names (?lesson=). */
const studyReads: RouteDefinition['firstReads'] = ({ courseId }, query) => {
  const lesson = query.get('lesson');
  return [`/courses/${enc(courseId)}/outline`, ...(lesson ? [`/blocks/${enc(lesson)}`] : [])];
};

/**
 * The route table: path → remote → scene → who may open it. Adding a screen is a
 * line here and a scene in its remote (whose root the compiler then asks for it).
 */
export const ROUTES = {
  landing: { path: '/', remote: 'mf_landing', scene: 'landing', access: 'public' },
  signIn: { path: '/auth', remote: 'mf_landing', scene: 'signIn', access: 'public' },
  // The administrator's one-time link to set a new password (RESET_PASSWORD_PATH).
  resetPassword: { path: '/auth/reset', remote: 'mf_landing', scene: 'resetPassword', access: 'public' },
  register: { path: '/register', remote: 'mf_landing', scene: 'register', access: 'public' },
  demo: { path: '/demo', remote: 'mf_editor', scene: 'demo', access: 'public' },
  demoLessonEditor: { path: '/demo/lesson-editor', remote: 'mf_editor', scene: 'demoLessonEditor', access: 'public' },
  demoBlockEditor: { path: '/demo/block-editor', remote: 'mf_editor', scene: 'demoBlockEditor', access: 'public' },
  demoCourseEditor: { path: '/demo/course-editor', remote: 'mf_editor', scene: 'demoCourseEditor', access: 'public' },
  dashboard: { path: '/dashboard', remote: 'mf_dashboard', scene: 'dashboard', access: ROLES },
  courses: { path: '/courses', remote: 'mf_courses', scene: 'courseList', access: ROLES },
  newCourse: { path: '/courses/create', remote: 'mf_courses', scene: 'newCourse', access: STAFF_ROLES },
  // The other reading of the spec names the new-course screen /courses/new.
  newCourseAlias: { path: '/courses/new', remote: 'mf_courses', scene: 'newCourse', access: STAFF_ROLES },
  editor: { path: '/editor/:courseId', remote: 'mf_editor', scene: 'courseEditor', access: STAFF_ROLES },
  // A course's question bank: authors read it, the course's own authors change it.
  questionBank: { path: '/editor/:courseId/bank', remote: 'mf_editor', scene: 'questionBank', access: STAFF_ROLES },
  // Without a module id the screen says «Не указан ID модуля».
  newLesson: { path: '/lesson/new/:moduleId?', remote: 'mf_editor', scene: 'newLesson', access: STAFF_ROLES },
  lessonEditorDemo: { path: '/lesson-editor-demo', remote: 'mf_editor', scene: 'demoLessonEditor', access: STAFF_ROLES },
  // Study mode: learners study; ADMIN and CURATOR open it as «Просмотр как слушатель», a preview that
  // records nothing (the client calls no writing route, and the progress service refuses staff).
  student: { path: '/student/:courseId', remote: 'mf_player', scene: 'study', access: ROLES, firstReads: studyReads },
  // Staff see everyone's results there (the server scopes learners to their own).
  results: { path: '/results', remote: 'mf_player', scene: 'results', access: ROLES },
  // «Проверка ответов»: long answers and files graded by a person (RESULTS_ALL_ROLES).
  reviews: { path: '/reviews', remote: 'mf_player', scene: 'reviews', access: STAFF_ROLES },
  crm: { path: '/crm', remote: 'mf_crm', scene: 'home', access: CRM_ROLES },
  organizations: { path: '/crm/orgs', remote: 'mf_crm', scene: 'organizations', access: CRM_ROLES },
  organization: { path: '/crm/orgs/:id', remote: 'mf_crm', scene: 'organization', access: CRM_ROLES },
  contacts: { path: '/crm/contacts', remote: 'mf_crm', scene: 'contacts', access: CRM_ROLES },
  // «Запросы субъектов ПДн» (152-FZ): exports and anonymisations, ADMIN only.
  subjectRequests: { path: '/crm/subject-requests', remote: 'mf_crm', scene: 'subjectRequests', access: ADMIN_ROLES },
  // «Импорт сотрудников» from an XLSX or CSV: ADMIN and CURATOR (opened from «Контакты»).
  staffImport: { path: '/crm/staff-import', remote: 'mf_crm', scene: 'staffImport', access: STAFF_ROLES },
  // «Синхронизация с каталогом» (LDAP / AD): configuration, runs, preview and apply, ADMIN only (opened from «Пользователи»).
  directorySync: { path: '/crm/directory-sync', remote: 'mf_crm', scene: 'directorySync', access: ADMIN_ROLES },
  // Training assignments: ADMIN and CURATOR assign, the MANAGER reads who is late.
  assignments: { path: '/assignments', remote: 'mf_dashboard', scene: 'assignments', access: CRM_ROLES },
  assignment: { path: '/assignments/:id', remote: 'mf_dashboard', scene: 'assignment', access: CRM_ROLES },
  // One person's assignments with their status (the report's drill-down).
  assignmentPerson: {
    path: '/assignments/person/:userId',
    remote: 'mf_dashboard',
    scene: 'assignmentPerson',
    access: CRM_ROLES,
  },
  // Learning programs: authors build tracks of courses in stages; MANAGER reads their reports.
  programs: { path: '/programs', remote: 'mf_dashboard', scene: 'programs', access: CRM_ROLES },
  programEditor: { path: '/programs/:id', remote: 'mf_dashboard', scene: 'programEditor', access: STAFF_ROLES },
  programReport: { path: '/program-assignments/:id', remote: 'mf_dashboard', scene: 'programReport', access: CRM_ROLES },
  programPerson: {
    path: '/program-assignments/:id/people/:userId',
    remote: 'mf_dashboard',
    scene: 'programPerson',
    access: CRM_ROLES,
  },
  // A learner's programs, and one program as a path of stages.
  myPrograms: { path: '/my-programs', remote: 'mf_dashboard', scene: 'myPrograms', access: STUDY_ROLES },
  myProgram: { path: '/my-programs/:assignmentId', remote: 'mf_dashboard', scene: 'myProgram', access: STUDY_ROLES },
  // «Анализ вопросов» of one quiz: ADMIN and the curators of its course (the server checks the course).
  quizAnalysis: { path: '/analysis/:quizId', remote: 'mf_dashboard', scene: 'quizAnalysis', access: STAFF_ROLES },
  // Candidate testing by link: staff make and revoke links; a candidate without an account opens one.
  candidateLinks: { path: '/candidate-links', remote: 'mf_player', scene: 'candidateLinks', access: STAFF_ROLES },
  candidateTest: { path: '/t/:token', remote: 'mf_player', scene: 'candidateTest', access: 'public' },
  // The public check of a certificate's number (the link printed on the PDF).
  verifyCertificate: { path: '/verify/:number', remote: 'mf_landing', scene: 'verifyCertificate', access: 'public' },
} as const satisfies Record<string, RouteDefinition>;

/** One link of the header; `roles` narrows it further than its route's access, `search` opens a view of the page. */
export interface NavigationEntry {
  route: keyof typeof ROUTES;
  label: string;
  roles?: readonly Role[];
  search?: string;
  /** A figure shown beside the label: what waits for the person there. */
  count?: 'reviewsWaiting';
}

/**
 * The links of the header, in their order: each person gets those their role may open (the route's
 * access, narrowed by `roles`). Learners find their assignments and certificates here, the MANAGER
 * the CRM, curators the answers waiting for them.
 */
export const NAVIGATION: readonly NavigationEntry[] = [
  { route: 'dashboard', label: 'Главная' },
  { route: 'courses', label: 'Курсы' },
  { route: 'courses', label: 'Мои назначения', roles: STUDY_ROLES, search: '?filter=assigned' },
  { route: 'myPrograms', label: 'Мои программы' },
  { route: 'results', label: 'Результаты', roles: RESULTS_ALL_ROLES },
  { route: 'results', label: 'Мои результаты', roles: STUDY_ROLES },
  { route: 'results', label: 'Сертификаты', roles: STUDY_ROLES, search: '?section=certificates' },
  { route: 'reviews', label: 'Проверка ответов', count: 'reviewsWaiting' },
  { route: 'assignments', label: 'Назначения' },
  { route: 'programs', label: 'Программы' },
  { route: 'organizations', label: 'Организации' },
  // The user directory (/crm/contacts of the spec): «Контакты» are an organization's contacts.
  { route: 'contacts', label: 'Пользователи' },
  { route: 'subjectRequests', label: 'Запросы ПДн' },
];
