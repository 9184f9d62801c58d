import {
  MSG,
  PROGRAM_MSG,
  addMonths,
  dayOf,
  type AuthResponse,
  type CertificateCheck,
  type Course,
  type MyProgram,
  type MyProgramSummary,
  type Notification,
  type Page,
  type Program,
  type ProgramAssignment,
  type ProgramPeoplePage,
  type ProgramReport,
} from '@portal/contracts';
import { clock, DAY_MS } from '@portal/service-kit';
import { api } from '@portal/devstack/testing';
import { patchUser, userWithRole } from '@portal/svc-auth/testing';
import { uniqueTitle } from '@portal/svc-content/testing';
import { reminderDeps } from '../../app';
import { enrolAudience } from '../../commands/programEnrolment';
import { runProgramReminders } from '../../commands/programRun';
import { recountTallies } from '../../commands/programTallies';
import { shiftDay } from '../../commands/reminders';
import type { ProgramAssignmentDoc } from '../../models/program';
import { seedQuizCourse, startProgress, takeSampleQuiz, type ProgressTestBed, type SeededCourse } from '../../testing';

let bed: ProgressTestBed;
beforeAll(async () => {
  bed = await startProgress();
});
afterAll(() => bed.close());
afterEach(() => clock.reset());

type Answer<T> = T & { message?: string; field?: string };
const call = <T = any>(method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body, headers });
const curator = () => bed.as.CURATOR.token;
const uniqueDepartment = () => `Отдел ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const dayPlus = (days: number) => dayOf(new Date(clock.now().getTime() + days * DAY_MS));

/** A published course of one text lesson, completed by marking that lesson. */
async function textCourse(title = uniqueTitle('Курс')): Promise<{ course: Course; lessonId: string }> {
  const post = async <T>(path: string, body: unknown) => {
    const answer = await api<T>(bed.content.url, 'POST', path, { token: curator(), body });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const course = await post<Course>('/api/courses', { title, description: 'Курс программы', isPublished: true });
  const mod = await post<{ id: string }>('/api/blocks', { type: 'MODULE', courseId: course.id, title: 'Модуль' });
  const lesson = await post<{ id: string }>('/api/blocks', {
    courseId: course.id,
    moduleId: mod.id,
    title: 'Урок',
    content: [{ type: 'text', content: { text: 'Текст урока' } }],
    status: 'published',
  });
  return { course, lessonId: lesson.id };
}

const completeLesson = (person: AuthResponse, c: { course: Course; lessonId: string }) =>
  call('POST', `/api/progress/lesson/${c.lessonId}/complete`, person.token, { courseId: c.course.id });

/** A learner of a department of their own (a program assigned to it reaches them). */
async function learnerIn(department: string, fullName = 'Анна Смирнова'): Promise<AuthResponse> {
  const person = await bed.learner('CLIENT', fullName);
  const { status } = await patchUser(bed.auth, bed.as.ADMIN.token, person.user.id, {
    fullName: person.user.fullName,
    email: person.user.email,
    role: person.user.role,
    department,
  });
  expect(status).toBe(200);
  return person;
}

interface Track {
  first: { course: Course; lessonId: string };
  second: SeededCourse;
  thirdA: { course: Course; lessonId: string };
  thirdB: { course: Course; lessonId: string };
  program: Program;
}

/** Three stages: the first open, the second (a quiz course) locked until the first is done, the third any one of two. */
async function buildTrack(extra: Record<string, unknown> = {}): Promise<Track> {
  const [first, second, thirdA, thirdB] = await Promise.all([textCourse(), seedQuizCourse(bed), textCourse(), textCourse()]);
  const created = await call<Program>('POST', '/api/programs', curator(), {
    title: uniqueTitle('Программа'),
    description: 'Адаптация',
    stages: [
      { title: 'Знакомство', courseIds: [first.course.id], dueDays: 7 },
      { title: 'Охрана труда', courseIds: [second.course.id], dueDays: 5, dueFrom: 'previous', locked: true },
      { title: 'Инструменты', courseIds: [thirdA.course.id, thirdB.course.id], required: 1, dueDays: 30 },
    ],
    ...extra,
  });
  expect(created.status).toBe(201);
  return { first, second, thirdA, thirdB, program: created.body };
}

async function assignTo(program: Program, department: string, extra: Record<string, unknown> = {}): Promise<ProgramAssignment> {
  const answer = await call<ProgramAssignment>('POST', '/api/program-assignments', curator(), {
    programId: program.id,
    audience: { kind: 'department', department },
    message: 'Начните с первого этапа',
    ...extra,
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** What the enrolment job does when the assignment is made (the worker is not running in this bed). */
async function enrol(assignmentId: string) {
  const doc = await bed.store.programAssignments.findById(assignmentId).lean<ProgramAssignmentDoc>();
  return enrolAudience(reminderDeps(bed.progress.ctx), doc!);
}

const myProgram = async (person: AuthResponse, assignmentId: string) => {
  const answer = await call<MyProgram>('GET', `/api/programs/my/${assignmentId}`, person.token);
  expect(answer.status).toBe(200);
  return answer.body;
};

const startQuiz = (person: AuthResponse, s: SeededCourse) =>
  call('POST', '/api/attempts', person.token, { quizId: s.quiz.id, courseId: s.course.id, lessonId: s.quizLessonId });

describe('programs: the editor', () => {
  it('refuses a bad program in Russian and changes nothing; a locked first stage, a course twice, an unpublished course', async () => {
    const c = await textCourse();
    const before = await bed.store.programs.countDocuments();
    const cases: Array<[unknown, string]> = [
      [{ title: '', stages: [{ title: 'Этап', dueDays: 7 }] }, PROGRAM_MSG.titleRequired],
      [{ title: 'П', stages: [] }, PROGRAM_MSG.stagesRequired],
      [{ title: 'П', stages: [{ title: 'Этап', dueDays: 7, locked: true }] }, PROGRAM_MSG.firstStageLocked],
      [{ title: 'П', stages: [{ title: 'Этап', dueDays: 0 }] }, PROGRAM_MSG.dueDaysInvalid],
      [
        {
          title: 'П',
          stages: [
            { title: 'А', dueDays: 7, courseIds: [c.course.id] },
            { title: 'Б', dueDays: 7, courseIds: [c.course.id] },
          ],
        },
        PROGRAM_MSG.courseTwice,
      ],
      [{ title: 'П', stages: [{ title: 'А', dueDays: 7, courseIds: [c.course.id], required: 2 }] }, PROGRAM_MSG.requiredInvalid],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/api/programs', curator(), body);
      expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 400, message });
    }
    const draft = await api<Course>(bed.content.url, 'POST', '/api/courses', {
      token: curator(),
      body: { title: uniqueTitle('Черновик'), description: 'd' },
    });
    const unpublished = await call('POST', '/api/programs', curator(), {
      title: 'П',
      stages: [{ title: 'А', dueDays: 7, courseIds: [draft.body.id] }],
    });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.message).toBe(PROGRAM_MSG.courseNotPublished(draft.body.title));
    expect(await bed.store.programs.countDocuments()).toBe(before);
  });

  it('saves from the version read: a stale save is 412, another curator is 403, a manager cannot write; copy and archive', async () => {
    const { program } = await buildTrack();
    const body = { title: program.title, stages: program.stages.map((s) => ({ ...s, courseIds: s.courses.map((c) => c.id) })) };
    const renamed = await call<Program>('PUT', `/api/programs/${program.id}`, curator(), {
      ...body,
      title: 'Новое имя',
      version: program.version,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.version).toBe(program.version + 1);
    const stale = await call('PUT', `/api/programs/${program.id}`, curator(), { ...body, version: program.version });
    expect(stale.status).toBe(412);
    expect(stale.body.message).toBe(MSG.staleDocument);

    const other = await bed.learner('CLIENT');
    const otherCurator = await userWithRole(bed.auth, 'CURATOR', 'Пётр Иванов');
    const foreign = await call('PUT', `/api/programs/${program.id}`, otherCurator.token, {
      ...body,
      version: renamed.body.version,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe(PROGRAM_MSG.notYours);
    expect((await call('POST', '/api/programs', bed.as.MANAGER.token, body)).status).toBe(403);
    expect((await call('GET', '/api/programs', other.token)).status).toBe(403);
    expect((await call('GET', `/api/programs/${program.id}`, bed.as.MANAGER.token)).status).toBe(200);

    const copy = await call<Program>('POST', `/api/programs/${program.id}/copy`, otherCurator.token);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ title: 'Новое имя (копия)', canEdit: true, stages: [{}, {}, {}] });

    const archived = await call<Program>('POST', `/api/programs/${program.id}/archive`, curator());
    expect(archived.body.status).toBe('archived');
    const refused = await call('POST', '/api/program-assignments', curator(), {
      programId: program.id,
      audience: { kind: 'all' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(PROGRAM_MSG.archived);
  });

  it('lets the owner name curators as co-authors, who may then edit it but not change who co-authors it', async () => {
    const { program } = await buildTrack();
    const body = { title: program.title, stages: program.stages.map((s) => ({ ...s, courseIds: s.courses.map((c) => c.id) })) };
    const [boris, learner] = await Promise.all([userWithRole(bed.auth, 'CURATOR', 'Борис Орлов'), bed.learner('CLIENT')]);
    const notCurator = await call('PUT', `/api/programs/${program.id}`, curator(), {
      ...body,
      coAuthorIds: [learner.user.id],
      version: program.version,
    });
    expect({ status: notCurator.status, message: notCurator.body.message }).toEqual({
      status: 400,
      message: PROGRAM_MSG.coAuthorNotCurator,
    });
    const named = await call<Program>('PUT', `/api/programs/${program.id}`, curator(), {
      ...body,
      coAuthorIds: [boris.user.id],
      version: program.version,
    });
    expect(named.body.coAuthors).toEqual([{ id: boris.user.id, fullName: 'Борис Орлов' }]);
    const asBoris = await call<Program>('GET', `/api/programs/${program.id}`, boris.token);
    expect(asBoris.body.canEdit).toBe(true);
    const edited = await call<Program>('PUT', `/api/programs/${program.id}`, boris.token, {
      ...body,
      title: 'Правка соавтора',
      coAuthorIds: [boris.user.id],
      version: named.body.version,
    });
    expect(edited.body.title).toBe('Правка соавтора');
    const widened = await call('PUT', `/api/programs/${program.id}`, boris.token, {
      ...body,
      coAuthorIds: [],
      version: edited.body.version,
    });
    expect({ status: widened.status, message: widened.body.message }).toEqual({
      status: 403,
      message: PROGRAM_MSG.coAuthorsOwnerOnly,
    });
  });

  it('copies a template as stages and deadlines without courses, which cannot be assigned until each stage has one', async () => {
    const templates = await call<Array<{ key: string; title: string }>>('GET', '/api/programs/templates', curator());
    expect(templates.body.map((t) => t.title)).toEqual([
      'Адаптация нового сотрудника',
      'Ежегодная проверка знаний по охране труда',
    ]);
    const copy = await call<Program>('POST', '/api/programs/templates/onboarding/copy', curator());
    expect(copy.status).toBe(201);
    expect(copy.body.stages.map((s) => s.courses.length)).toEqual([0, 0, 0]);
    const refused = await call('POST', '/api/program-assignments', curator(), {
      programId: copy.body.id,
      audience: { kind: 'all' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(PROGRAM_MSG.stageEmpty('Знакомство с компанией'));
  });
});

describe('programs: a learner goes through the stages', () => {
  it('a lock assigned after a completion found none refuses the next completion at once', async () => {
    const track = await buildTrack();
    const department = uniqueDepartment();
    const anna = await learnerIn(department);
    const lesson = { course: track.second.course, lessonId: track.second.textLessonId };
    // No program reaches her yet: the lesson is completed, and that no lock holds the course is kept.
    expect((await completeLesson(anna, lesson)).status).toBe(201);
    expect((await completeLesson(anna, lesson)).status).toBe(200);
    await assignTo(track.program, department);
    const refused = await completeLesson(anna, lesson);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message: PROGRAM_MSG.locked(track.program.title, 'Охрана труда', 'Знакомство'),
    });
  });

  it('keeps a locked stage closed on the server, opens it when the stage before is complete, and counts any N', async () => {
    const track = await buildTrack();
    const department = uniqueDepartment();
    const anna = await learnerIn(department);
    const assignment = await assignTo(track.program, department);

    const mine = await call<Page<MyProgramSummary>>('GET', '/api/programs/my', anna.token);
    expect(mine.body.data).toEqual([
      expect.objectContaining({ assignmentId: assignment.id, stageCount: 3, stagesCompleted: 0, status: 'in_progress' }),
    ]);
    const start = await myProgram(anna, assignment.id);
    expect(start.stages.map((s) => s.status)).toEqual(['in_progress', 'locked', 'in_progress']);
    expect(start.stages[0].dueDate).toBe(dayPlus(7));
    expect(start.stages[1]).toMatchObject({ dueDate: null, opensAfter: 'Знакомство' });

    const lockedMessage = PROGRAM_MSG.locked(track.program.title, 'Охрана труда', 'Знакомство');
    const refusedQuiz = await startQuiz(anna, track.second);
    expect({ status: refusedQuiz.status, message: refusedQuiz.body.message }).toEqual({ status: 409, message: lockedMessage });
    const refusedLesson = await completeLesson(anna, { course: track.second.course, lessonId: track.second.textLessonId });
    expect(refusedLesson.status).toBe(409);
    expect(await bed.store.completions.countDocuments({ userId: anna.user.id, courseId: track.second.course.id })).toBe(0);

    expect((await completeLesson(anna, track.first)).status).toBeLessThan(300);
    const opened = await myProgram(anna, assignment.id);
    expect(opened.stages.map((s) => s.status)).toEqual(['completed', 'in_progress', 'in_progress']);
    expect(opened.stages[1].dueDate).toBe(dayPlus(5));
    const told = await call<Page<Notification>>('GET', '/api/notifications', anna.token);
    expect(told.body.data.map((n) => n.title)).toEqual(
      expect.arrayContaining([
        `Вам назначена программа обучения «${track.program.title}»`,
        `Открыт этап «Охрана труда» программы «${track.program.title}»`,
      ]),
    );

    await completeLesson(anna, { course: track.second.course, lessonId: track.second.textLessonId });
    await takeSampleQuiz(bed, anna.token, track.second);
    // Any one of two: the first of them completes the stage and the program.
    await completeLesson(anna, track.thirdB);
    const done = await myProgram(anna, assignment.id);
    expect(done.status).toBe('completed');
    expect(done.stages.map((s) => [s.status, s.done, s.required])).toEqual([
      ['completed', 1, 1],
      ['completed', 1, 1],
      ['completed', 1, 1],
    ]);
    expect(done.stages[2].courses.map((c) => c.percent)).toEqual([0, 100]);
  });

  it('counts a course completed before the program was assigned, so nobody takes it twice', async () => {
    const track = await buildTrack();
    const department = uniqueDepartment();
    const boris = await learnerIn(department, 'Борис Орлов');
    await completeLesson(boris, track.first);
    const assignment = await assignTo(track.program, department);
    await enrol(assignment.id);
    const stages = (await myProgram(boris, assignment.id)).stages;
    expect(stages.map((s) => s.status)).toEqual(['completed', 'in_progress', 'in_progress']);
    expect((await startQuiz(boris, track.second)).status).toBe(201);
  });

  it('reports people per stage and overdue ones once the clock passes a deadline; a personal extension moves one person', async () => {
    const track = await buildTrack();
    const department = uniqueDepartment();
    const [vera, gleb, dina] = await Promise.all([
      learnerIn(department, 'Вера Белова'),
      learnerIn(department, 'Глеб Жуков'),
      learnerIn(department, 'Дина Ким'),
    ]);
    const assignment = await assignTo(track.program, department);
    expect((await enrol(assignment.id)).enrolled).toBe(3);
    await completeLesson(vera, track.first);

    clock.advance(8 * DAY_MS);
    const extended = await call('POST', `/api/program-assignments/${assignment.id}/extend`, curator(), {
      userId: dina.user.id,
      stageKey: track.program.stages[0].key,
      dueDate: dayPlus(3),
    });
    expect(extended.status).toBe(200);
    const report = await call<ProgramReport>('GET', `/api/program-assignments/${assignment.id}/report`, bed.as.MANAGER.token);
    // Глеб missed the first stage (7 days); Вера finished it on day 0, so her second stage (5 days after) is late
    // too; Дина's own deadline for the first stage is three days on.
    expect(report.body).toMatchObject({ assigned: 3, completed: 0, overdue: 2, percent: 0 });
    expect(report.body.stages.map((s) => [s.current, s.completed, s.overdue])).toEqual([
      [2, 1, 1],
      [1, 0, 1],
      [0, 0, 0],
    ]);
    // The figures kept as people moved are those counted again from the members (the daily run's recount).
    await recountTallies(bed.store, assignment.id);
    const recounted = await call<ProgramReport>('GET', `/api/program-assignments/${assignment.id}/report`, curator());
    expect(recounted.body).toEqual(report.body);
    const elsewhere = await call<ProgramReport>(
      'GET',
      `/api/program-assignments/${assignment.id}/report?department=Склад`,
      curator(),
    );
    expect(elsewhere.body).toMatchObject({ assigned: 0, overdue: 0 });
    // The people are filtered by where they stood at their last change; the scheduled run marks the day's new delays.
    await runProgramReminders(reminderDeps(bed.progress.ctx), dayOf(clock.now()));
    const late = await call<ProgramPeoplePage>(
      'GET',
      `/api/program-assignments/${assignment.id}/people?status=overdue`,
      curator(),
    );
    expect(late.body.total).toBe(2);
    expect(late.body.data.map((p) => [p.fullName, p.currentStage?.title, p.currentStage?.status])).toEqual([
      [vera.user.fullName, 'Охрана труда', 'overdue'],
      [gleb.user.fullName, 'Знакомство', 'overdue'],
    ]);
    const onTime = await call<ProgramPeoplePage>(
      'GET',
      `/api/program-assignments/${assignment.id}/people?status=in_progress`,
      curator(),
    );
    expect(onTime.body.data.map((p) => [p.fullName, p.currentStage?.dueDate])).toEqual([[dina.user.fullName, dayPlus(3)]]);

    const csv = await call<string>('GET', `/api/program-assignments/${assignment.id}/export?format=csv`, curator());
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('Глеб Жуков');
    expect((await call('GET', `/api/program-assignments/${assignment.id}/report`, vera.token)).status).toBe(403);
  });

  it('begins a recurring program again a period after it was completed, and counts only what is done in the new cycle', async () => {
    const single = await textCourse();
    const program = await call<Program>('POST', '/api/programs', curator(), {
      title: uniqueTitle('Ежегодная'),
      stages: [{ title: 'Теория', courseIds: [single.course.id], dueDays: 21 }],
    });
    const department = uniqueDepartment();
    const egor = await learnerIn(department, 'Егор Лис');
    const assignment = await assignTo(program.body, department, { recurrenceMonths: 12 });
    await completeLesson(egor, single);
    const first = await myProgram(egor, assignment.id);
    expect(first.status).toBe('completed');

    // Eleven months on, it stands completed; a year on, the next cycle begins and the old completion no longer counts.
    clock.advance(330 * DAY_MS);
    expect((await runProgramReminders(reminderDeps(bed.progress.ctx), dayOf(clock.now()))).newCycles).toBe(0);
    expect((await myProgram(egor, assignment.id)).status).toBe('completed');
    clock.advance(36 * DAY_MS);
    const run = await runProgramReminders(reminderDeps(bed.progress.ctx), dayOf(clock.now()));
    expect(run.newCycles).toBe(1);
    const again = await myProgram(egor, assignment.id);
    const cycleStart = addMonths(dayOf(new Date(first.completedAt!)), 12);
    expect(again.status).toBe('in_progress');
    expect(again.stages[0]).toMatchObject({ status: 'in_progress', done: 0, dueDate: shiftDay(cycleStart, 21) });
  });

  it('tells each person of a stage due soon once, however many replicas run the day at once', async () => {
    const single = await textCourse();
    const program = await call<Program>('POST', '/api/programs', curator(), {
      title: uniqueTitle('Напоминания'),
      stages: [{ title: 'Единственный этап', courseIds: [single.course.id], dueDays: 5 }],
    });
    const department = uniqueDepartment();
    const zoya = await learnerIn(department, 'Зоя Мухина');
    const assignment = await assignTo(program.body, department);
    await enrol(assignment.id);
    clock.advance(2 * DAY_MS);
    const today = dayOf(clock.now());
    await Promise.all([
      runProgramReminders(reminderDeps(bed.progress.ctx), today),
      runProgramReminders(reminderDeps(bed.progress.ctx), today),
    ]);
    await runProgramReminders(reminderDeps(bed.progress.ctx), today);
    const soon = await bed.store.notifications.find({ userId: zoya.user.id, kind: 'stage_due_soon' }).lean();
    expect(soon.map((n) => n.title)).toEqual(['Через 3 дня срок этапа «Единственный этап»']);
  });

  it('issues the program certificate when every stage is complete, checkable by its number', async () => {
    const single = await textCourse();
    const program = await call<Program>('POST', '/api/programs', curator(), {
      title: uniqueTitle('С сертификатом'),
      certificate: true,
      stages: [{ title: 'Этап', courseIds: [single.course.id], dueDays: 5 }],
    });
    const department = uniqueDepartment();
    const ivan = await learnerIn(department, 'Иван Сидоров');
    const assignment = await assignTo(program.body, department);
    await completeLesson(ivan, single);
    const done = await myProgram(ivan, assignment.id);
    expect(done.certificateNumber).toMatch(/^C-\d{4}-[A-Z0-9]{8}$/);
    const verify = await call<CertificateCheck>('GET', `/api/certificates/verify/${done.certificateNumber}`);
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ subject: 'program', courseTitle: program.body.title, fullName: 'Иван Сидоров' });
  });
});
