import { performance } from 'node:perf_hooks';
import type { Course, ProgramAssignment, Program } from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { userModel } from '@portal/svc-auth/models/user';
import { reminderDeps } from '@portal/svc-progress/app';
import { enrolAudience } from '@portal/svc-progress/commands/programEnrolment';
import type { ProgramAssignmentDoc } from '@portal/svc-progress/models/program';
import { startProgress } from '@portal/svc-progress/testing';
import { QUICK, type Figure } from './harness';

/** The report's target: a program of 10 stages × 5 courses assigned to 5,000 people. */
const REPORT_P95_MS = 300;
const PEOPLE = QUICK ? 1_000 : 5_000;
const STAGES = 10;
const COURSES_PER_STAGE = 5;
const READS = 40;
const round = (n: number) => Number(n.toFixed(1));
const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1];

/**
 * A learning program's report at its target size, over the real services and store: 50 published
 * courses in 10 stages, a department of 5,000 people enrolled by the job's own code, a fifth of them
 * a few stages in (their course completions in the store, as completing lessons writes them). Then the
 * report and a page of its people are read 40 times each, one after the other, and their p95 given.
 */
export async function programFigures(figures: Figure[]): Promise<void> {
  const bed = await startProgress();
  try {
    const token = bed.as.CURATOR.token;
    const post = async <T>(base: string, path: string, body: unknown): Promise<T> => {
      const answer = await api<T>(base, 'POST', path, { token, body });
      if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const courses: Course[] = [];
    for (let i = 0; i < STAGES * COURSES_PER_STAGE; i += 1) {
      courses.push(
        await post<Course>(bed.content.url, '/api/courses', {
          title: `Курс ${i + 1}`,
          description: 'Бенчмарк',
          isPublished: true,
        }),
      );
    }
    const program = await post<Program>(bed.progress.url, '/api/programs', {
      title: 'Программа бенчмарка',
      stages: Array.from({ length: STAGES }, (_, s) => ({
        title: `Этап ${s + 1}`,
        courseIds: courses.slice(s * COURSES_PER_STAGE, (s + 1) * COURSES_PER_STAGE).map((c) => c.id),
        dueDays: 7 * (s + 1),
        locked: s > 0,
      })),
    });
    const department = `Бенчмарк ${Date.now().toString(36)}`;
    const users = await userModel(bed.auth.ctx.store).insertMany(
      Array.from({ length: PEOPLE }, (_, i) => ({
        email: `bench.program.${i}.${Date.now().toString(36)}@example.test`,
        fullName: `Сотрудник ${String(i).padStart(5, '0')}`,
        role: 'CLIENT',
        department,
        passwordHash: 'x',
      })),
    );
    // A fifth of them have completed the first one to four stages before it is assigned.
    const now = new Date();
    await bed.store.courseCompletions.insertMany(
      users.flatMap((u, i) =>
        i % 5 === 0
          ? courses
              .slice(0, COURSES_PER_STAGE * (1 + (i % 4)))
              .map((c) => ({ userId: String(u._id), courseId: c.id, courseTitle: c.title, completedAt: now }))
          : [],
      ),
    );
    const assignment = await post<ProgramAssignment>(bed.progress.url, '/api/program-assignments', {
      programId: program.id,
      audience: { kind: 'department', department },
    });
    const doc = await bed.store.programAssignments.findById(assignment.id).lean<ProgramAssignmentDoc>();
    const enrolling = performance.now();
    const { enrolled } = await enrolAudience(reminderDeps(bed.progress.ctx), doc!);
    const enrolSeconds = (performance.now() - enrolling) / 1000;

    const timed = async (path: string) => {
      const samples: number[] = [];
      for (let i = 0; i < READS; i += 1) {
        const started = performance.now();
        const answer = await api(bed.progress.url, 'GET', path, { token: bed.as.MANAGER.token });
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
        samples.push(performance.now() - started);
      }
      return p95(samples);
    };
    const report = await timed(`/api/program-assignments/${assignment.id}/report`);
    const people = await timed(`/api/program-assignments/${assignment.id}/people?status=in_progress&page=3`);
    const size = `${STAGES} stages × ${COURSES_PER_STAGE} courses, ${PEOPLE.toLocaleString('en')} people`;
    figures.push(
      {
        name: `program report p95 (${size})`,
        value: round(report),
        unit: 'ms',
        budget: `≤ ${REPORT_P95_MS} ms`,
        limit: REPORT_P95_MS,
        met: report <= REPORT_P95_MS,
        note: `${READS} reads one after another, through the progress service over HTTP`,
      },
      {
        name: `program people page p95 (${size}, filtered by status)`,
        value: round(people),
        unit: 'ms',
        budget: `≤ ${REPORT_P95_MS} ms`,
        limit: REPORT_P95_MS,
        met: people <= REPORT_P95_MS,
        note: `page 3 of those in progress, 50 a page`,
      },
      {
        name: `program enrolment of ${PEOPLE.toLocaleString('en')} people (the assignment's job)`,
        value: round(enrolSeconds),
        unit: 's',
        note: `${enrolled} enrolled, a hundred a round trip, a fifth of them with stages already completed`,
      },
    );
  } finally {
    await bed.close();
  }
}
