import { CONSENT_DOCUMENT, STAFF_ROLES, type Role } from '@portal/contracts';
import { api, uniqueInn } from '@portal/devstack/testing';
import { renderAct, rolesOf, type RouteDeclaration } from '@portal/service-kit';
import { auditApi } from '@portal/svc-audit/routes/api';
import { authApi } from '@portal/svc-auth/routes/api';
import { contentApi } from '@portal/svc-content/routes/api';
import { signLaunchToken } from '@portal/svc-content/scorm/token';
import { crmApi } from '@portal/svc-crm/routes/api';
import { progressApi } from '@portal/svc-progress/routes/api';
import { progressScormApi } from '@portal/svc-progress/routes/scorm/api';
import { testPasswordHash, userWithRole } from '@portal/svc-auth/testing';
import { userModel } from '@portal/svc-auth/models/user';
import { STUDY_ROLES } from '@portal/contracts';
import type { Caller, Portal } from './portal';

/** What one cell of the matrix sends: path parameters, a JSON body, a query string. */
export interface CellRequest {
  params?: Record<string, string>;
  body?: unknown;
  query?: string;
  /** The status a caller with the right gets; without it any answer but 401, 403 and 5xx will do. */
  ok?: number;
  /**
   * A session of the caller's own for this cell, in place of the shared one: for routes that end the
   * session they are called with (logout, logout-all), which would end the caller's shared token.
   */
  token?: string;
}

export interface RouteRule {
  /** `public`: anyone; `internal`: only with the INTERNAL_TOKEN; otherwise the roles that get through. */
  access: 'public' | 'internal' | readonly Role[];
  /** Roles answered 404 instead: someone else's owner-scoped record, whose existence is not revealed. */
  hiddenFrom?: readonly Role[];
  /** Builds a cell's request with real ids; destructive routes get a fresh target per cell. */
  request?: (portal: Portal, caller: Caller) => Promise<CellRequest> | CellRequest;
  /** Announced but not landed yet: may be missing from the routers (never the other way round). */
  pending?: true;
}

let serial = 0;

/** A curator's history as the gateway asks the audit service for it: the reader and their course. */
const scopedHistoryBody = (p: Portal) => ({
  reader: { id: p.as.CURATOR.user.id, fullName: p.as.CURATOR.user.fullName, email: p.as.CURATOR.user.email },
  entityIds: [p.seeded.course.id],
});

/** A one-row staff list as the import's screen sends it (a CSV, base64). */
const staffImportBody = () => ({
  fileName: 'staff.csv',
  content: Buffer.from(
    `ФИО;Email;Подразделение;Должность;Роль\r\nИмпортов Иван Иванович;imp${Date.now().toString(36)}${serial++}@example.test;Склад;Кладовщик;Клиент\r\n`,
  ).toString('base64'),
});
const unique = () => `${Date.now().toString(36)}${serial++}`;

async function created(portal: Portal, base: string, path: string, body: unknown, token: string): Promise<string> {
  const answer = await api(base, 'POST', path, { token, body });
  if (answer.status !== 201) throw new Error(`fixture ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id as string;
}

/**
 * Fresh records for destructive cells, made by the curator (content) or the manager (crm). Each is
 * at version 0 when made, so a cell's write names `version: 0`, as a client that has just created it.
 */
export const fresh = {
  course: (p: Portal) => created(p, p.content.url, '/api/courses', { title: `Черновик ${unique()}` }, p.as.CURATOR.token),
  async lesson(p: Portal) {
    const courseId = await fresh.course(p);
    const moduleId = await created(p, p.content.url, '/api/blocks', { type: 'MODULE', courseId }, p.as.CURATOR.token);
    return created(p, p.content.url, '/api/blocks', { courseId, moduleId }, p.as.CURATOR.token);
  },
  quiz: (p: Portal) => created(p, p.content.url, '/api/quizzes', { title: `Квиз ${unique()}` }, p.as.CURATOR.token),
  /** A question of the seeded course's bank, made by the matrix's curator (its owner). */
  bankQuestion: (p: Portal) =>
    created(p, p.content.url, `/api/courses/${p.seeded.course.id}/bank`, bankQuestionBody(), p.as.CURATOR.token),
  organization: (p: Portal) =>
    created(p, p.crm.url, '/api/organizations', { name: `Орг ${unique()}`, inn: uniqueInn() }, p.as.MANAGER.token),
  contact: (p: Portal) =>
    created(
      p,
      p.crm.url,
      '/api/contacts',
      { fullName: 'Пётр Временный', email: `c${unique()}@example.test`, orgId: p.organizationId },
      p.as.MANAGER.token,
    ),
  /**
   * A person in the directory who never signs in, made straight in the store as userWithRole does (the
   * cells need only the record): no login, and one password hash for them all.
   */
  async user(p: Portal): Promise<{ id: string; email: string; fullName: string }> {
    const person = await userModel(p.auth.ctx.store).create({
      email: `person.${unique()}@example.test`,
      fullName: 'Временный Пользователь',
      role: 'CANDIDATE',
      passwordHash: await testPasswordHash(),
    });
    return { id: String(person._id), email: person.email, fullName: person.fullName };
  },
  /** An open data-subject request (export) about a fresh person, filed by the ADMIN. */
  async subjectRequest(p: Portal): Promise<string> {
    const person = await fresh.user(p);
    return created(p, p.auth.url, '/api/subject-requests', { userId: person.id, kind: 'export' }, p.as.ADMIN.token);
  },
  /** An assignment of the seeded course to everyone, made by the matrix's curator (who may then change it). */
  assignment: (p: Portal) => created(p, p.progress.url, '/api/assignments', assignmentBody(p), p.as.CURATOR.token),
  /** A one-stage program of the seeded course, made by the matrix's curator (its owner). */
  program: (p: Portal) => created(p, p.progress.url, '/api/programs', programBody(p), p.as.CURATOR.token),
  /** A program of the matrix's curator assigned to the matrix's learners. */
  async programAssignment(p: Portal): Promise<string> {
    const programId = await fresh.program(p);
    return created(p, p.progress.url, '/api/program-assignments', programAssignmentBody(p, programId), p.as.CURATOR.token);
  },
  /**
   * A program assignment whose people are all in. No enrolment job runs beside the matrix's services, so
   * each learner is enrolled as the portal does when they open their program; a read of its report or
   * people then gives the same answer twice, however the sweep's other requests enrol them meanwhile.
   */
  async settledProgramAssignment(p: Portal): Promise<string> {
    const id = await fresh.programAssignment(p);
    for (const role of STUDY_ROLES) {
      const opened = await api(p.progress.url, 'GET', `/api/programs/my/${id}`, { token: p.as[role].token });
      if (opened.status !== 200) throw new Error(`fixture program assignment ${id}: ${role} opened it with ${opened.status}`);
    }
    return id;
  },
  /** A candidate link to the seeded quiz lesson, made by the matrix's curator (its owner). */
  async candidateLink(p: Portal): Promise<string> {
    const answer = await api(p.progress.url, 'POST', '/api/candidate-links', {
      token: p.as.CURATOR.token,
      body: candidateLinkBody(p),
    });
    if (answer.status !== 201) throw new Error(`fixture candidate link: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.link.id as string;
  },
  /** A person with a session of their own, who has not yet given the consent (its cells give it). */
  session: (p: Portal) => userWithRole(p.auth, 'CANDIDATE', 'Временный Пользователь', { consent: false }),
  /** A pending application: a self-registration as CURATOR over the real route. */
  async application(p: Portal): Promise<string> {
    const answer = await api(p.auth.url, 'POST', '/api/auth/register', {
      body: { email: `apply.${unique()}@example.test`, password: 'Kursy-Portal-42', fullName: 'Заявитель', role: 'CURATOR' },
    });
    if (answer.status !== 201) throw new Error(`fixture application: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.application.id as string;
  },
  /** A curator who is none of the matrix's callers (one per portal): a co-author to add, another course's owner. */
  curator(p: Portal) {
    let curator = curators.get(p);
    if (!curator) {
      curator = userWithRole(p.auth, 'CURATOR', 'Другой Куратор');
      curators.set(p, curator);
    }
    return curator;
  },
  /**
   * One course-builder job per portal, started by a curator who is none of the matrix's callers: the
   * matrix's CURATOR must get 404 for it and the ADMIN its answer. One job, not one per cell, because
   * each author may start only a few generations an hour.
   */
  job(p: Portal): Promise<string> {
    let job = jobs.get(p);
    if (!job) {
      job = (async () => {
        const author = await userWithRole(p.auth, 'CURATOR', 'Другой Автор');
        const answer = await api(p.content.url, 'POST', '/api/courses/generate', {
          token: author.token,
          body: { topic: 'Охрана труда', audience: 'Новые сотрудники', goals: ['Знать правила'] },
        });
        if (answer.status !== 202) throw new Error(`fixture generation: ${answer.status} ${JSON.stringify(answer.body)}`);
        // Finished before anyone probes it: a job that writes its course mid-test would move the stored state.
        for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
          const job = await api(p.content.url, 'GET', `/api/generations/${answer.body.id}`, { token: author.token });
          if (job.body?.status !== 'running') return answer.body.id as string;
        }
        throw new Error('fixture generation did not finish in 15 s');
      })();
      jobs.set(p, job);
    }
    return job;
  },
};
const jobs = new WeakMap<Portal, Promise<string>>();
const bankQuestionBody = () => ({
  tags: ['матрица'],
  question: { type: 'single_choice', question: `Вопрос ${unique()}`, options: ['Да', 'Нет'], correctAnswers: [0] },
});
/** Each call its own due day: an identical assignment is answered with the existing one (200), not made again. */
const assignmentBody = (p: Portal) => ({
  courseId: p.seeded.course.id,
  audience: { kind: 'all' },
  dueDate: new Date(Date.UTC(2099, 0, 1 + serial++)).toISOString().slice(0, 10),
});
/** One stage of the seeded course, each program its own title. */
const programBody = (p: Portal) => ({
  title: `Программа ${unique()}`,
  stages: [{ key: 'stage1', title: 'Первый этап', courseIds: [p.seeded.course.id], dueDays: 30 }],
});
/** Assigned by name to the matrix's learners, who then each see it as their own. */
const programAssignmentBody = (p: Portal, programId: string) => ({
  programId,
  audience: { kind: 'users', userIds: STUDY_ROLES.map((role) => p.as[role].user.id) },
});
const candidateLinkBody = (p: Portal) => ({
  courseId: p.seeded.course.id,
  lessonId: p.seeded.quizLessonId,
  maxUses: 5,
  timeLimitMinutes: 30,
  showResult: false,
});
/** A well-formed token no link has: the public routes answer 404 to everyone. */
const UNKNOWN_LINK_TOKEN = 'N'.repeat(43);
const curators = new WeakMap<Portal, ReturnType<typeof userWithRole>>();

/** The session a token names. */
const sessionOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

/** Another session of the caller's own user (every matrix user has userWithRole's password). */
async function ownSession(p: Portal, caller: Role): Promise<string> {
  const answer = await api(p.auth.url, 'POST', '/api/auth/login', {
    body: { email: p.as[caller].user.email, password: 'Kursy-Portal-42' },
  });
  if (answer.status !== 200) throw new Error(`fixture session: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

const internal: RouteRule = { access: 'internal' };

/** Each holder of personal data answers what it holds about a person and forgets them (for the gateway only). */
const subjectRules = (service: 'auth' | 'content' | 'progress' | 'crm' | 'audit'): Record<string, RouteRule> => ({
  [`${service} GET /internal/subjects/:userId`]: {
    ...internal,
    request: (p) => ({
      params: { userId: p.victim.user.id },
      query: `?email=${encodeURIComponent(p.victim.user.email)}`,
      ok: 200,
    }),
  },
  [`${service} POST /internal/subjects/:userId/anonymise`]: {
    ...internal,
    request: async (p) => {
      const person = await fresh.user(p);
      return {
        params: { userId: person.id },
        body: { alias: 'Удалённый пользователь №00000001', fullName: person.fullName, email: person.email },
        ok: 200,
      };
    },
  },
});

/**
 * The expected access of every route of the five services, by route pattern. The matrix test fails
 * for a declared route missing here, so a new route cannot ship unclassified.
 */
export const ROUTE_RULES: Record<string, RouteRule> = {
  // auth
  // The public routes' rows come from their declarations.
  ...declaredRules('auth', authApi, {
    register: () => ({
      body: { email: `reg.${unique()}@example.test`, password: 'Kursy-Portal-42', fullName: 'Новый Человек' },
      ok: 201,
    }),
    login: (p) => ({ body: { email: p.victim.user.email, password: p.victim.password }, ok: 200 }),
    logout: async (p, caller) => (caller === 'anonymous' ? {} : { token: await ownSession(p, caller), ok: 204 }),
    // These two act on the caller's own account whatever the role: each cell uses a fresh person (a
    // candidate, so no extra administrator appears), whose sessions and password no one else shares.
    logoutEverywhere: async (p, caller) => (caller === 'anonymous' ? {} : { token: (await fresh.session(p)).token, ok: 204 }),
    changePassword: async (p, caller) => ({
      body: { currentPassword: 'Kursy-Portal-42', newPassword: 'Novyi-Parol-77' },
      ...(caller === 'anonymous' ? {} : { token: (await fresh.session(p)).token, ok: 200 }),
    }),
    resetPassword: async (p) => {
      const person = await fresh.user(p);
      const link = await api(p.auth.url, 'POST', `/api/users/${person.id}/password-reset`, { token: p.as.ADMIN.token });
      if (link.status !== 201) throw new Error(`fixture reset link: ${link.status} ${JSON.stringify(link.body)}`);
      const token = new URL(link.body.path as string, 'http://portal').searchParams.get('token');
      return { body: { token, password: 'Svezhii-Parol-5' }, ok: 200 };
    },
    // «Забыли пароль?»: the same 202 for any email; a new one per cell, so the request limit is not what answers.
    requestPasswordLink: () => ({ body: { email: `forgot.${unique()}@example.test` }, ok: 202 }),
    // The corporate sign-in is not configured in the matrix's portal: its browser steps answer 404
    // (in Russian), and a code it never issued is a 400. Its flow is tested against a real provider
    // in services/auth/src/routes/oidc.
    startCorporateSignIn: () => ({ ok: 404 }),
    finishCorporateSignIn: () => ({ query: '?code=x&state=y', ok: 404 }),
    exchangeCorporateSignIn: () => ({ body: { code: 'a-code-never-issued' }, ok: 400 }),
    issuePasswordLink: (p) => ({ params: { id: p.victim.user.id }, ok: 201 }),
    getUser: (p) => ({ params: { id: p.victim.user.id }, ok: 200 }),
    updateUser: async (p) => {
      const user = await fresh.user(p);
      return {
        params: { id: user.id },
        body: { fullName: 'Изменённое Имя', email: user.email, role: 'CANDIDATE', version: 0 },
        ok: 200,
      };
    },
    deleteUser: async (p) => ({ params: { id: (await fresh.user(p)).id }, ok: 204 }),
    approveApplication: async (p) => ({ params: { id: await fresh.application(p) }, ok: 200 }),
    declineApplication: async (p) => ({ params: { id: await fresh.application(p) }, ok: 200 }),
    // A fresh person each cell: their own consent, given once (201) and then withdrawn (200).
    giveConsent: async (p, caller) => ({
      body: { version: CONSENT_DOCUMENT.version },
      ...(caller === 'anonymous' ? {} : { token: (await fresh.session(p)).token, ok: 201 }),
    }),
    withdrawConsent: async (p, caller) => {
      if (caller === 'anonymous') return {};
      const { token } = await fresh.session(p);
      const given = await api(p.auth.url, 'POST', '/api/consent', { token, body: { version: CONSENT_DOCUMENT.version } });
      if (given.status !== 201) throw new Error(`fixture consent: ${given.status} ${JSON.stringify(given.body)}`);
      return { token, ok: 200 };
    },
    previewStaffImport: () => ({ body: staffImportBody(), ok: 201 }),
    createSubjectRequest: async (p) => ({ body: { userId: (await fresh.user(p)).id, kind: 'export' }, ok: 201 }),
    getSubjectRequestAct: async (p) => {
      const id = await fresh.subjectRequest(p);
      const act = (await renderAct({ title: 'Акт', paragraphs: ['Проверка'], createdAt: new Date() })).toString('base64');
      const done = await api(p.auth.url, 'POST', `/internal/subject-requests/${id}/done`, {
        body: { completedBy: p.as.ADMIN.user.id, act },
        headers: { 'x-internal-token': process.env.INTERNAL_TOKEN! },
      });
      if (done.status !== 200) throw new Error(`fixture act: ${done.status} ${JSON.stringify(done.body)}`);
      return { params: { id }, ok: 200 };
    },
    // The directory sync is not configured in the matrix's portal (no LDAP_URL): a run is refused as a conflict.
    startDirectoryRun: () => ({ body: { mode: 'preview' }, ok: 409 }),
    getDirectoryRun: () => ({ params: { id: '64b7f0c2a1b2c3d4e5f60718' }, ok: 404 }),
    listDirectoryRunPeople: () => ({ params: { id: '64b7f0c2a1b2c3d4e5f60718' }, ok: 404 }),
    // The import is the caller's own: a preview of theirs for each cell that may run it.
    runStaffImportBatch: async (p, caller) => {
      const token = caller === 'anonymous' ? undefined : p.tokenOf(caller);
      const id =
        token && STAFF_ROLES.includes(caller as Role)
          ? await created(p, p.auth.url, '/api/staff-import', staffImportBody(), token)
          : '64b7f0c2a1b2c3d4e5f60718';
      return { params: { id }, body: { from: 0 }, ok: 200 };
    },
  }),
  'auth GET /internal/users': { ...internal, request: (p) => ({ query: `?email=${p.victim.user.email}`, ok: 200 }) },
  'auth GET /internal/users/:id': {
    ...internal,
    request: (p) => ({ params: { id: p.victim.user.id }, query: `?session=${sessionOf(p.victim.token)}`, ok: 200 }),
  },
  'auth GET /internal/stats': { ...internal, request: () => ({ ok: 200 }) },
  'auth GET /internal/subject-requests/:id': {
    ...internal,
    request: async (p) => ({ params: { id: await fresh.subjectRequest(p) }, ok: 200 }),
  },
  'auth POST /internal/subject-requests/:id/act-number': {
    ...internal,
    request: async (p) => ({ params: { id: await fresh.subjectRequest(p) }, ok: 200 }),
  },
  'auth POST /internal/subject-requests/:id/done': {
    ...internal,
    request: async (p) => ({ params: { id: await fresh.subjectRequest(p) }, body: { completedBy: p.as.ADMIN.user.id }, ok: 200 }),
  },
  ...subjectRules('auth'),
  ...subjectRules('content'),
  ...subjectRules('progress'),
  ...subjectRules('crm'),
  ...subjectRules('audit'),
  'auth POST /internal/candidates': { ...internal, request: () => ({ body: {}, ok: 400 }) },
  'auth POST /internal/candidates/purge': { ...internal, request: () => ({ body: { ids: [] }, ok: 200 }) },
  'auth GET /internal/audience': { ...internal, request: () => ({ query: '?department=Склад', ok: 200 }) },

  // content: reading is for everyone signed in (published courses), writing for ADMIN and CURATOR
  // The declared routes' rows come from their declarations: the seeded course is the matrix CURATOR's own.
  ...declaredRules('content', contentApi, {
    // Courses: the seeded course's reads and marks, and a fresh course of the matrix CURATOR for each write.
    listCourses: () => ({ ok: 200 }),
    listFavoriteCourses: () => ({ ok: 200 }),
    listStartedCourses: () => ({ ok: 200 }),
    getCourse: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    getCourseOutline: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    createCourse: () => ({ body: { title: `Курс ${unique()}` }, ok: 201 }),
    updateCourse: async (p) => ({ params: { id: await fresh.course(p) }, body: { title: 'Переименован', version: 0 }, ok: 200 }),
    deleteCourse: async (p) => ({ params: { id: await fresh.course(p) }, ok: 204 }),
    copyCourse: async (p) => ({ params: { id: await fresh.course(p) }, ok: 201 }),
    // Co-authors: a course of the matrix's CURATOR (its owner) and any ADMIN; ownership.test covers other curators.
    listCourseAuthors: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    addCourseCoAuthor: async (p) => ({
      params: { id: await fresh.course(p) },
      body: { userId: (await fresh.curator(p)).user.id },
      ok: 200,
    }),
    removeCourseCoAuthor: async (p) => ({
      params: { id: await fresh.course(p), userId: (await fresh.curator(p)).user.id },
      ok: 200,
    }),
    addFavoriteCourse: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    removeFavoriteCourse: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    markCourseStarted: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    // Modules and lessons: read as their course is, written by its authors.
    listCourseBlocks: (p) => ({ params: { courseId: p.seeded.course.id }, ok: 200 }),
    reorderBlocks: async (p) => ({ body: { blocks: [{ id: await fresh.lesson(p), position: 0 }] }, ok: 200 }),
    importLessons: () => ({ body: {} }),
    copyLesson: async (p) => ({ params: { id: await fresh.lesson(p) }, ok: 201 }),
    getBlock: (p) => ({ params: { id: p.seeded.textLessonId }, ok: 200 }),
    createBlock: async (p) => ({ body: { type: 'MODULE', courseId: await fresh.course(p) }, ok: 201 }),
    updateBlock: async (p) => ({ params: { id: await fresh.lesson(p) }, body: { title: 'Новый урок', version: 0 }, ok: 200 }),
    deleteBlock: async (p) => ({ params: { id: await fresh.lesson(p) }, ok: 204 }),
    exportCourseScorm: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    // No multipart file: refused as input after the course's rule (the seeded course is the CURATOR's own).
    uploadScormPackage: (p) => ({ query: `?courseId=${p.seeded.course.id}&mode=lesson`, ok: 400 }),
    launchScorm: () => ({ body: {}, ok: 400 }),
    // A package's files: the launch token in the path is the only key; a good one of a package with no such file.
    scormFile: () => ({
      params: {
        token: signLaunchToken(process.env.JWT_SECRET ?? '', { packageId: '0123456789abcdef01234567', userId: 'matrix' }).token,
      },
      ok: 404,
    }),
    // Versions (docs/decisions/093): the authors' own. A publish or a discard from a version the course
    // never had is stale (412); a version it does not have is 404.
    getCourseDraft: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    listCourseVersions: (p) => ({ params: { id: p.seeded.course.id }, ok: 200 }),
    publishCourseVersion: (p) => ({
      params: { id: p.seeded.course.id },
      body: { summary: 'Матрица', basedOn: 999_999 },
      ok: 412,
    }),
    discardCourseDraft: (p) => ({ params: { id: p.seeded.course.id }, body: { basedOn: 999_999 }, ok: 412 }),
    compareCourseVersions: (p) => ({ params: { id: p.seeded.course.id }, query: '?from=999998&to=999999', ok: 404 }),
    getCourseVersion: (p) => ({ params: { id: p.seeded.course.id, number: '999999' }, ok: 404 }),
    getCourseVersionLesson: (p) => ({
      params: { id: p.seeded.course.id, number: '999999', lessonId: '0123456789abcdef01234567' },
      ok: 404,
    }),
    restoreCourseVersion: (p) => ({ params: { id: p.seeded.course.id, number: '999999' }, ok: 404 }),
    pruneCourseVersions: (p) => ({ params: { id: p.seeded.course.id }, body: { keep: 1000 }, ok: 200 }),
    // Quizzes: the authors list and write them (a fresh one of the curator's for each destructive cell);
    // everyone signed in reads the seeded one (a quiz of a published lesson).
    listQuizzes: () => ({ ok: 200 }),
    getQuiz: (p) => ({ params: { id: p.seeded.quiz.id }, ok: 200 }),
    createQuiz: () => ({ body: { title: `Квиз ${unique()}` }, ok: 201 }),
    updateQuiz: async (p) => ({ params: { id: await fresh.quiz(p) }, body: { title: 'Новое название', version: 0 }, ok: 200 }),
    deleteQuiz: async (p) => ({ params: { id: await fresh.quiz(p) }, ok: 204 }),
    // A course's question bank: authors read it; its owner (the matrix's CURATOR) and ADMIN write it.
    listBankQuestions: (p) => ({ params: { courseId: p.seeded.course.id }, ok: 200 }),
    createBankQuestion: (p) => ({ params: { courseId: p.seeded.course.id }, body: bankQuestionBody(), ok: 201 }),
    getBankQuestion: async (p) => ({
      params: { courseId: p.seeded.course.id, questionId: await fresh.bankQuestion(p) },
      ok: 200,
    }),
    updateBankQuestion: async (p) => ({
      params: { courseId: p.seeded.course.id, questionId: await fresh.bankQuestion(p) },
      body: { ...bankQuestionBody(), version: 0 },
      ok: 200,
    }),
    deleteBankQuestion: async (p) => ({
      params: { courseId: p.seeded.course.id, questionId: await fresh.bankQuestion(p) },
      ok: 204,
    }),
    // Without a multipart body a caller with the right gets 400 (no file, or no quiz named); uploads.test.ts sends real files.
    uploadFile: () => ({ ok: 400 }),
    uploadFiles: () => ({ ok: 400 }),
    uploadAnswerFile: () => ({ ok: 400 }),
    // No token by design: <img> and <video> cannot send one; the random name is the capability.
    downloadFile: (p) => ({ params: { name: p.uploadName }, ok: 200 }),
    // The course builder: ADMIN and CURATOR; someone else's job is 404 to a curator, its owner's and an ADMIN's to use.
    generateCourse: () => ({ body: {}, ok: 400 }),
    getGenerationConfig: () => ({ ok: 200 }),
    regenerateCoursePart: () => ({ body: {}, ok: 400 }),
    getGeneration: { hiddenFrom: ['CURATOR'], request: async (p) => ({ params: { id: await fresh.job(p) }, ok: 200 }) },
    cancelGeneration: { hiddenFrom: ['CURATOR'], request: async (p) => ({ params: { id: await fresh.job(p) } }) },
    acceptGeneration: { hiddenFrom: ['CURATOR'], request: async (p) => ({ params: { id: await fresh.job(p) }, body: {} }) },
  }),
  'content GET /internal/scorm/lessons/:lessonId': { ...internal, request: () => ({ ok: 404 }) },
  'content POST /internal/courses/:id/learner-activity': {
    ...internal,
    request: async (p) => ({ params: { id: await fresh.course(p) }, ok: 204 }),
  },
  'content GET /internal/stats': {
    ...internal,
    request: (p) => ({ query: `?role=${p.victim.user.role}&userId=${p.victim.user.id}`, ok: 200 }),
  },
  // A quiz as the progress service asks for its card: the victim, who must see it, as data.
  'content GET /internal/quizzes/:id': {
    ...internal,
    request: (p) => ({
      params: { id: p.seeded.quiz.id },
      query: `?userId=${p.victim.user.id}&role=${p.victim.user.role}`,
      ok: 200,
    }),
  },
  // An attempt's start as the progress service asks it: the learner (the victim, a CANDIDATE) as data.
  'content POST /internal/attempt-starts': {
    ...internal,
    request: (p) => ({
      body: {
        quizId: p.seeded.quiz.id,
        courseId: p.seeded.course.id,
        lessonId: p.seeded.quizLessonId,
        drawSeed: '0123456789abcdef',
        learner: { id: p.victim.user.id, role: p.victim.user.role },
      },
      ok: 200,
    }),
  },
  'content GET /internal/courses/:id/outline': {
    ...internal,
    request: (p) => ({
      params: { id: p.seeded.course.id },
      query: `?userId=${p.victim.user.id}&role=${p.victim.user.role}`,
      ok: 200,
    }),
  },
  // A lesson's quiz as a person reads the lesson (a candidate link's creation): the victim as data.
  'content GET /internal/courses/:id/lessons/:lessonId/quiz': {
    ...internal,
    request: (p) => ({
      params: { id: p.seeded.course.id, lessonId: p.seeded.textLessonId },
      query: `?userId=${p.victim.user.id}&role=${p.victim.user.role}`,
      ok: 200,
    }),
  },
  'content GET /internal/courses/editable': {
    ...internal,
    request: (p) => ({ query: `?userId=${p.as.CURATOR.user.id}`, ok: 200 }),
  },
  'content GET /internal/courses/activity-scope': {
    ...internal,
    request: (p) => ({ query: `?userId=${p.as.CURATOR.user.id}`, ok: 200 }),
  },
  // SCORM attempts: learners open and commit their own (a lesson without a package, an attempt of
  // nobody's: 404); anyone reads attempts by the results' rule; item analysis as the quiz's.
  ...declaredRules('progress', progressScormApi, {
    openScormAttempt: (p) => ({ body: { courseId: p.seeded.course.id, lessonId: p.seeded.textLessonId }, ok: 404 }),
    commitScormAttempt: () => ({
      params: { id: '0123456789abcdef01234567' },
      body: { commitSequence: 1, runtimeData: { cmi: {} } },
      ok: 404,
    }),
    analyzeScormLesson: (p) => ({ query: `?courseId=${p.seeded.course.id}&lessonId=${p.seeded.textLessonId}`, ok: 200 }),
  }),
  'progress GET /internal/stats': { ...internal, request: (p) => ({ query: `?userId=${p.victim.user.id}`, ok: 200 }) },
  // progress's other declared routes: lesson completions and course progress, results and their
  // export, grading, item analysis, certificates, assignments, notifications (everyone reads and marks
  // only their own: someone else's, or a missing one, is 404), learning programs and candidate links
  ...declaredRules('progress', progressApi, {
    markNotificationRead: () => ({ params: { id: '0123456789abcdef01234567' }, ok: 404 }),
    // Taking a quiz is for CLIENT, CANDIDATE and MANAGER; the victim's attempt is nobody else's: the
    // other learners submit it or read it to 404, staff read it (the matrix's CURATOR owns its course).
    getQuizCard: (p) => ({ params: { quizId: p.seeded.quiz.id }, ok: 200 }),
    startAttempt: (p) => ({
      body: { quizId: p.seeded.quiz.id, courseId: p.seeded.course.id, lessonId: p.seeded.quizLessonId },
      ok: 201,
    }),
    submitAttempt: {
      hiddenFrom: STUDY_ROLES,
      request: (p) => ({ params: { id: p.victimAttemptId }, body: { answers: [] } }),
    },
    getAttempt: { hiddenFrom: STUDY_ROLES, request: (p) => ({ params: { id: p.victimAttemptId }, ok: 200 }) },
    // The victim's attempt holds no answer for a person to grade: 404 to those with the right.
    gradeAnswer: (p) => ({ params: { attemptId: p.victimAttemptId, questionId: 'q1' }, body: { score: 0 }, ok: 404 }),
    // Only its own learner saves an attempt's answers: the victim's is 404 to everyone else with the right.
    saveAttemptAnswers: (p) => ({ params: { id: p.victimAttemptId }, body: { answers: [] }, ok: 404 }),
    // Item analysis: ADMIN and the curators of the quiz's course (the matrix's CURATOR owns the seeded one).
    analyzeQuiz: (p) => ({ params: { quizId: p.seeded.quiz.id }, ok: 200 }),
    // certificates: the check is public; a learner asks for theirs; the PDF is its holder's (and the course's authors' and ADMIN's)
    verifyCertificate: () => ({ params: { number: 'C-2026-ABCDEFGH' } }),
    issueCertificate: (p) => ({ body: { courseId: p.seeded.course.id } }),
    downloadCertificate: () => ({ params: { number: 'C-2026-ABCDEFGH' } }),
    // assignments: ADMIN and CURATOR assign (a curator changes their own), the manager reads, learners see their own
    listPersonAssignments: (p) => ({ params: { userId: p.victim.user.id }, ok: 200 }),
    createAssignment: (p) => ({ body: assignmentBody(p), ok: 201 }),
    getAssignment: async (p) => ({ params: { id: await fresh.assignment(p) }, ok: 200 }),
    updateAssignment: async (p) => ({
      params: { id: await fresh.assignment(p) },
      body: { ...assignmentBody(p), courseId: undefined },
      ok: 200,
    }),
    deleteAssignment: async (p) => ({ params: { id: await fresh.assignment(p) }, ok: 204 }),
    extendAssignment: async (p) => ({ params: { id: await fresh.assignment(p) }, body: { dueDate: '2100-01-31' }, ok: 200 }),
    listAssignmentPeople: async (p) => ({ params: { id: await fresh.assignment(p) }, ok: 200 }),
    assignmentReport: async (p) => ({ params: { id: await fresh.assignment(p) }, ok: 200 }),
    exportAssignmentPeople: async (p) => ({ params: { id: await fresh.assignment(p) }, ok: 200 }),
    // studying: a learner's own completions and progress
    completeLesson: (p) => ({ params: { lessonId: p.seeded.textLessonId }, body: { courseId: p.seeded.course.id } }),
    getCourseProgress: (p) => ({ params: { courseId: p.seeded.course.id }, ok: 200 }),
    listCompletedLessons: (p) => ({ params: { courseId: p.seeded.course.id }, ok: 200 }),
    // candidate links: staff make them (a curator for courses they may change), anyone with a link starts it
    createCandidateLink: (p) => ({ body: candidateLinkBody(p), ok: 201 }),
    revokeCandidateLink: async (p) => ({ params: { id: await fresh.candidateLink(p) }, ok: 200 }),
    viewCandidateLink: () => ({ params: { token: UNKNOWN_LINK_TOKEN }, ok: 404 }),
    startCandidateLink: () => ({
      params: { token: UNKNOWN_LINK_TOKEN },
      body: {
        fullName: 'Кандидатов Пётр',
        email: 'candidate@example.test',
        consent: true,
        consentVersion: CONSENT_DOCUMENT.version,
      },
      ok: 404,
    }),
    // learning programs: authors build and assign, MANAGER reads, learners see their own
    copyProgramTemplate: () => ({ params: { key: 'onboarding' }, ok: 201 }),
    createProgram: (p) => ({ body: programBody(p), ok: 201 }),
    getProgram: async (p) => ({ params: { id: await fresh.program(p) }, ok: 200 }),
    updateProgram: async (p) => ({ params: { id: await fresh.program(p) }, body: { ...programBody(p), version: 0 }, ok: 200 }),
    copyProgram: async (p) => ({ params: { id: await fresh.program(p) }, ok: 201 }),
    archiveProgram: async (p) => ({ params: { id: await fresh.program(p) }, ok: 200 }),
    restoreProgram: async (p) => ({ params: { id: await fresh.program(p) }, ok: 200 }),
    getMyProgram: async (p) => ({ params: { assignmentId: await fresh.settledProgramAssignment(p) }, ok: 200 }),
    createProgramAssignment: async (p) => ({ body: programAssignmentBody(p, await fresh.program(p)), ok: 201 }),
    getProgramAssignment: async (p) => ({ params: { id: await fresh.programAssignment(p) }, ok: 200 }),
    deleteProgramAssignment: async (p) => ({ params: { id: await fresh.programAssignment(p) }, ok: 204 }),
    // Nobody of that id is in it: the right to extend is what the matrix checks (the service test extends).
    extendProgramStage: async (p) => ({
      params: { id: await fresh.programAssignment(p) },
      body: { userId: '0123456789abcdef01234567', stageKey: 'stage1', dueDate: '2100-01-31' },
      ok: 404,
    }),
    programAssignmentReport: async (p) => ({ params: { id: await fresh.settledProgramAssignment(p) }, ok: 200 }),
    listProgramPeople: async (p) => ({ params: { id: await fresh.settledProgramAssignment(p) }, ok: 200 }),
    getProgramPerson: async (p) => ({
      params: { id: await fresh.programAssignment(p), userId: '0123456789abcdef01234567' },
      ok: 404,
    }),
    exportProgramPeople: async (p) => ({ params: { id: await fresh.settledProgramAssignment(p) }, ok: 200 }),
  }),

  // crm: ADMIN, CURATOR and MANAGER. The public routes' rows come from their declarations.
  ...declaredRules('crm', crmApi, {
    getOrganization: (p) => ({ params: { id: p.organizationId }, ok: 200 }),
    createOrganization: () => ({ body: { name: `Орг ${unique()}`, inn: uniqueInn() }, ok: 201 }),
    updateOrganization: async (p) => ({
      params: { id: await fresh.organization(p) },
      body: { site: 'example.test', version: 0 },
      ok: 200,
    }),
    deleteOrganization: async (p) => ({ params: { id: await fresh.organization(p) }, ok: 204 }),
    createContact: (p) => ({
      body: { fullName: 'Анна Новая', email: `n${unique()}@example.test`, orgId: p.organizationId },
      ok: 201,
    }),
    updateContact: async (p) => ({
      params: { id: await fresh.contact(p) },
      body: { phone: '+7 999 123-45-67', version: 0 },
      ok: 200,
    }),
    deleteContact: async (p) => ({ params: { id: await fresh.contact(p) }, ok: 204 }),
  }),
  'crm GET /internal/stats': { ...internal, request: () => ({ ok: 200 }) },

  // audit
  // The public routes' rows come from their declarations. The whole trail is ADMIN's; a curator's is
  // their courses' part of it, which the gateway reads from /internal/audit; straight to the service,
  // their own actions only.
  ...declaredRules('audit', auditApi),
  'audit GET /internal/activity': { ...internal, request: () => ({ ok: 200 }) },
  'audit POST /internal/activity': {
    ...internal,
    request: (p) => ({ body: { actorId: p.as.CURATOR.user.id, entityIds: [p.seeded.course.id] }, ok: 200 }),
  },
  'audit POST /internal/audit': { ...internal, request: (p) => ({ body: scopedHistoryBody(p), ok: 200 }) },
  'audit POST /internal/audit/export': { ...internal, request: (p) => ({ body: scopedHistoryBody(p), ok: 200 }) },
};

/** `service METHOD /path` with the trailing slash of a router's '/' route dropped. */
// A function declaration, not a const: the table above already reads declared routes' keys through it.
export function routeKey(route: { service: string; method: string; path: string }): string {
  return `${route.service} ${route.method} ${route.path.length > 1 ? route.path.replace(/\/$/, '') : route.path}`;
}

/**
 * The rows of a service's declared routes, read from their declarations: who gets through, and the
 * status the rightful caller gets. `requests` gives the cells of a route that needs ids or a body,
 * with the roles its record's own rule answers 404 (`hiddenFrom`) when it has one.
 */
export function declaredRules(
  service: string,
  declarations: readonly RouteDeclaration[],
  requests: Record<string, NonNullable<RouteRule['request']> | Pick<Required<RouteRule>, 'request' | 'hiddenFrom'>> = {},
): Record<string, RouteRule> {
  return Object.fromEntries(
    declarations.map((declaration) => {
      const given = requests[declaration.operationId];
      const cells: Pick<RouteRule, 'request' | 'hiddenFrom'> | undefined =
        typeof given === 'function' ? { request: given } : given;
      return [
        routeKey({ service, ...declaration }),
        {
          access: rolesOf(declaration.access),
          request: cells?.request ?? (() => ({ ok: declaration.ok.status })),
          ...(cells?.hiddenFrom ? { hiddenFrom: cells.hiddenFrom } : {}),
        },
      ];
    }),
  );
}

/** What a caller should get from a route: 'ok' (the right), or the refusal. */
export function expectedFor(rule: RouteRule, caller: Caller): 'ok' | 401 | 403 | 404 {
  if (rule.access === 'public') return 'ok';
  if (rule.access === 'internal') return 403; // a bearer token of any role is not the internal token
  if (caller === 'anonymous') return 401;
  if (rule.hiddenFrom?.includes(caller)) return 404;
  return rule.access.includes(caller) ? 'ok' : 403;
}

/** The route's path with real ids in place of its parameters. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => {
    // A route nobody gave ids for (a pending one) gets a well-formed id of nothing.
    return encodeURIComponent(params[name] ?? '0123456789abcdef01234567');
  });
}

/** A course of the matrix's CURATOR with one module, one lesson and a quiz written for it. */
export interface OwnedCourse {
  courseId: string;
  moduleId: string;
  lessonId: string;
  quizId: string;
  bankQuestionId: string;
}

/**
 * A course of the matrix's CURATOR with a module, a lesson, a quiz and a bank question: published
 * (`draft: false`, so another curator finds it and is refused its writes: 403), or a draft.
 */
export async function ownedCourse(p: Portal, { draft = false } = {}): Promise<OwnedCourse> {
  const token = p.as.CURATOR.token;
  const courseId = await created(
    p,
    p.content.url,
    '/api/courses',
    { title: `Курс ${unique()}`, status: draft ? 'draft' : 'published' },
    token,
  );
  const moduleId = await created(p, p.content.url, '/api/blocks', { type: 'MODULE', courseId }, token);
  const lessonId = await created(p, p.content.url, '/api/blocks', { courseId, moduleId }, token);
  const quizId = await created(p, p.content.url, '/api/quizzes', { title: `Квиз ${unique()}`, courseId }, token);
  const bankQuestionId = await created(p, p.content.url, `/api/courses/${courseId}/bank`, bankQuestionBody(), token);
  return { courseId, moduleId, lessonId, quizId, bankQuestionId };
}

/**
 * Every write route of a course and what it holds (course, module, lesson, block, quiz), as a curator
 * who neither owns nor co-authors the course would call it. The ownership test fails for a content
 * write route that is neither here nor in OWNERSHIP_EXEMPT, so a new one cannot skip the rule.
 */
export const OWNED_WRITES: Record<string, (o: OwnedCourse) => CellRequest> = {
  // Refused on the course's rule before any file is read.
  'content POST /api/scorm/packages': (o) => ({ query: `?courseId=${o.courseId}&mode=course` }),
  'content PATCH /api/courses/:id': (o) => ({ params: { id: o.courseId }, body: { title: 'Захвачен', version: 0 } }),
  'content DELETE /api/courses/:id': (o) => ({ params: { id: o.courseId } }),
  'content POST /api/courses/:id/authors': (o) => ({ params: { id: o.courseId }, body: { userId: 'self' } }),
  'content DELETE /api/courses/:id/authors/:userId': (o) => ({ params: { id: o.courseId, userId: 'someone' } }),
  'content POST /api/blocks': (o) => ({ body: { courseId: o.courseId, moduleId: o.moduleId } }),
  'content PATCH /api/blocks/:id': (o) => ({ params: { id: o.lessonId }, body: { title: 'Чужой урок', version: 0 } }),
  'content DELETE /api/blocks/:id': (o) => ({ params: { id: o.moduleId } }),
  'content POST /api/blocks/:id/copy': (o) => ({ params: { id: o.lessonId } }),
  'content POST /api/blocks/reorder': (o) => ({ body: { blocks: [{ id: o.lessonId, position: 0 }] } }),
  'content POST /api/blocks/import': (o) => ({ body: { courseId: o.courseId, moduleId: o.moduleId, lessonIds: [o.lessonId] } }),
  'content POST /api/quizzes': (o) => ({ body: { title: 'Подброшенный', courseId: o.courseId } }),
  'content PATCH /api/quizzes/:id': (o) => ({ params: { id: o.quizId }, body: { title: 'Чужой квиз', version: 0 } }),
  'content DELETE /api/quizzes/:id': (o) => ({ params: { id: o.quizId } }),
  'content POST /api/courses/:courseId/bank': (o) => ({ params: { courseId: o.courseId }, body: bankQuestionBody() }),
  'content PUT /api/courses/:courseId/bank/:questionId': (o) => ({
    params: { courseId: o.courseId, questionId: o.bankQuestionId },
    body: { ...bankQuestionBody(), version: 0 },
  }),
  'content DELETE /api/courses/:courseId/bank/:questionId': (o) => ({
    params: { courseId: o.courseId, questionId: o.bankQuestionId },
  }),
  'content POST /api/generations/regenerate': (o) => ({ body: { target: 'lesson', id: o.lessonId } }),
  // Versions (docs/decisions/093): publishing, discarding, restoring and pruning are the authors'.
  'content POST /api/courses/:id/versions': (o) => ({
    params: { id: o.courseId },
    body: { summary: 'Чужая публикация', basedOn: 1 },
  }),
  'content POST /api/courses/:id/draft/discard': (o) => ({ params: { id: o.courseId }, body: { basedOn: 1 } }),
  'content POST /api/courses/:id/versions/:number/restore': (o) => ({ params: { id: o.courseId, number: '1' } }),
  'content POST /api/courses/:id/versions/prune': (o) => ({ params: { id: o.courseId }, body: { keep: 1 } }),
};

/** Content writes that change no existing course, with the reason. */
export const OWNERSHIP_EXEMPT: Record<string, string> = {
  'content POST /api/courses': 'makes a new course, owned by its maker',
  'content POST /api/courses/:id/copy': 'reads the course and makes a new one owned by the copier',
  'content POST /api/courses/:id/favorite': 'the person’s own mark',
  'content DELETE /api/courses/:id/favorite': 'the person’s own mark',
  'content POST /api/courses/:id/start': 'the person’s own mark',
  'content POST /api/courses/generate': 'makes a new course, owned by its maker',
  'content DELETE /api/generations/:id': 'a job is its starter’s (404 to others), and changes no course',
  'content POST /api/generations/:id/accept': 'a job is its starter’s (404 to others); accepting re-checks the course',
  'content POST /api/upload/file': 'a file belongs to no course until a lesson the author may change holds it',
  'content POST /api/upload/files': 'a file belongs to no course until a lesson the author may change holds it',
  'content POST /api/upload/answer': 'a learner’s own answer file, part of no course until an attempt names it',
  'content POST /api/scorm/launch': 'opens a lesson the person may study; changes nothing',
};

/**
 * Every route that reads a course as its authors do (its drafts, lessons, quizzes with their answer
 * keys, its bank), as a curator who neither owns nor co-authors a draft course would call it: the
 * status they get. The owner and ADMIN get 200 on each.
 */
export const AUTHOR_READS: Record<string, { request: (o: OwnedCourse) => CellRequest; status: number }> = {
  'content GET /api/courses/:id': { request: (o) => ({ params: { id: o.courseId } }), status: 404 },
  'content GET /api/courses/:id/outline': { request: (o) => ({ params: { id: o.courseId } }), status: 404 },
  'content GET /api/courses/:id/authors': { request: (o) => ({ params: { id: o.courseId } }), status: 404 },
  'content GET /api/blocks/course/:courseId': { request: (o) => ({ params: { courseId: o.courseId } }), status: 404 },
  'content GET /api/blocks/:id': { request: (o) => ({ params: { id: o.lessonId } }), status: 404 },
  'content GET /api/quizzes/:id': { request: (o) => ({ params: { id: o.quizId } }), status: 404 },
  'content GET /api/courses/:courseId/bank': { request: (o) => ({ params: { courseId: o.courseId } }), status: 403 },
  'content GET /api/courses/:courseId/bank/:questionId': {
    request: (o) => ({ params: { courseId: o.courseId, questionId: o.bankQuestionId } }),
    status: 403,
  },
  // What the draft holds against the published version, and the history (docs/decisions/093).
  'content GET /api/courses/:id/draft': { request: (o) => ({ params: { id: o.courseId } }), status: 404 },
  'content GET /api/courses/:id/versions': { request: (o) => ({ params: { id: o.courseId } }), status: 404 },
};

/**
 * Every route that reads learners' answers or results, as a curator who neither owns nor co-authors
 * the seeded course (the matrix's CURATOR owns it) would call it about the victim's attempt there:
 * the status they get. A 200 must hold nothing of the victim (the ownership test reads the body).
 */
export const ANSWER_READS: Record<string, { request: (p: Portal) => CellRequest; status: number }> = {
  'progress GET /api/attempts/:id': { request: (p) => ({ params: { id: p.victimAttemptId } }), status: 404 },
  'progress GET /api/results': { request: (p) => ({ query: `?quizId=${p.seeded.quiz.id}` }), status: 200 },
  'progress GET /api/results/export': { request: (p) => ({ query: `?userId=${p.victim.user.id}` }), status: 200 },
  'progress GET /api/results/analysis/:quizId': { request: (p) => ({ params: { quizId: p.seeded.quiz.id } }), status: 403 },
  'progress GET /api/reviews': { request: () => ({}), status: 200 },
  // SCORM attempts: the list and its export name none of another curator's course (200, empty of the
  // victim); the item analysis of its lesson is refused.
  'progress GET /api/scorm/attempts': { request: (p) => ({ query: `?courseId=${p.seeded.course.id}` }), status: 200 },
  'progress GET /api/scorm/attempts/export': { request: (p) => ({ query: `?courseId=${p.seeded.course.id}` }), status: 200 },
  'progress GET /api/scorm/attempts/analysis': {
    request: (p) => ({ query: `?courseId=${p.seeded.course.id}&lessonId=${p.seeded.textLessonId}` }),
    status: 403,
  },
  // The victim's attempt holds no answer waiting for a person: nothing to grade, for anyone (404).
  'progress POST /api/reviews/:attemptId/:questionId': {
    request: (p) => ({ params: { attemptId: p.victimAttemptId, questionId: 'q1' }, body: { score: 0 } }),
    status: 404,
  },
};
