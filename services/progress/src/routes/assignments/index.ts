import type Router from '@koa/router';
import {
  ASSIGNMENT_EXPORT_HEADER,
  ASSIGNMENT_MSG,
  ASSIGNMENT_STATUS_LABELS,
  EXPORT_MAX_ROWS,
  exportFileName,
  pageOffset,
  type Assignment,
  type AssignmentPerson,
  type AssignmentReport,
  type MyAssignment,
  type Page,
  type PersonAssignments,
} from '@portal/contracts';
import {
  declaredRouter,
  exportColumns,
  exportDay,
  idempotent,
  implement,
  notFound,
  op,
  readPage,
  sendExport,
  type DeclaredHandler,
  type ServiceContext,
} from '@portal/service-kit';
import type { PeopleClient } from '../../clients/people';
import { assignedTo, audiencePage } from '../../commands/assignmentAudience';
import {
  createAssignment,
  deleteAssignment,
  extendAssignment,
  loadAssignment,
  updateAssignment,
} from '../../commands/assignments';
import { assignmentReport, audienceStatuses, statusesFor } from '../../commands/assignmentStatus';
import type { ProgressDeps } from '../../commands/deps';
import { authorizeAssignmentEdit } from '../../policies/assignments';
import { presentAssignment, presentAssignmentPerson, presentMyAssignment } from '../../presenters/assignment';
import * as declared from './declarations';

/** Widths (characters) of ASSIGNMENT_EXPORT_HEADER's columns in the XLSX. */
const EXPORT_COLUMN_WIDTHS = [32, 30, 24, 14, 12, 14, 17];

type AssignmentDeps = ProgressDeps & {
  people: PeopleClient;
  /** Asks for the «назначен» notifications of a new assignment. */ onAssigned?: (id: string) => void;
};

/** Training assignments: curators and administrators assign, the manager reads, a learner sees their own. */
export function assignmentRoutes(service: ServiceContext, deps: AssignmentDeps): DeclaredHandler[] {
  const { models, content, people } = deps;
  const once = idempotent(service);

  /** A page of the assignments that reach one person, the earliest due first, with how many there are. */
  const reaching = (filter: Record<string, unknown>, page: number, limit: number) =>
    readPage(models.assignments, filter, { page, limit }, { dueDate: 1, _id: 1 });

  return [
    implement(declared.listMyAssignments, async (ctx, { query: { page, limit, courseId } }) => {
      const me = ctx.state.user;
      const filter = courseId ? { ...assignedTo(me), courseId } : assignedTo(me);
      const { rows, ...counted } = await reaching(filter, page, limit);
      const statuses = await statusesFor(models, rows, [me.id]);
      const data = rows
        .map((doc) => presentMyAssignment(doc, statuses.get(`${String(doc._id)}|${me.id}`)!))
        // A personal extension or a recurrence moves a person's day: the page is in their own order.
        .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
      const body: Page<MyAssignment> = { data, ...counted, page, limit };
      return body;
    }),

    implement(declared.listPersonAssignments, async (_ctx, { params: { userId }, query: { page, limit } }) => {
      const [person] = (await people.audience({ ids: [userId], page: 1, limit: 1 })).data;
      if (!person) throw notFound(ASSIGNMENT_MSG.personNotFound);
      const { rows, ...counted } = await reaching(assignedTo(person), page, limit);
      const statuses = await statusesFor(models, rows, [person.id]);
      const body: PersonAssignments = {
        person: { id: person.id, fullName: person.fullName, email: person.email, department: person.department ?? '' },
        data: rows.map((doc) => presentMyAssignment(doc, statuses.get(`${String(doc._id)}|${person.id}`)!)),
        ...counted,
        page,
        limit,
      };
      return body;
    }),

    implement(declared.listAssignments, async (_ctx, { query: { page, limit, courseId, dueFrom, dueTo } }) => {
      const filter: Record<string, unknown> = courseId ? { courseId } : {};
      if (dueFrom || dueTo) filter.dueDate = op({ ...(dueFrom ? { $gte: dueFrom } : {}), ...(dueTo ? { $lte: dueTo } : {}) });
      const { rows, ...counted } = await readPage(models.assignments, filter, { page, limit }, { createdAt: -1, _id: -1 });
      const body: Page<Assignment> = { data: rows.map(presentAssignment), ...counted, page, limit };
      return body;
    }),

    // Idempotency-Key: the handler answers inside it (201, or 200 with the identical one), so a retry gets the first answer.
    implement(declared.createAssignment, (ctx, { body }) =>
      once(ctx, async () => {
        const course = await content.outlineFor(body.courseId, ctx.state.user);
        const { doc, created } = await createAssignment(deps, ctx.state.user, course, body);
        if (created) deps.onAssigned?.(String(doc._id));
        ctx.status = created ? 201 : 200;
        ctx.body = presentAssignment(doc);
      }),
    ),

    implement(declared.getAssignment, async (_ctx, { params }) => presentAssignment(await loadAssignment(models, params.id))),

    implement(declared.updateAssignment, async (ctx, { params, body }) => {
      const before = await loadAssignment(models, params.id);
      authorizeAssignmentEdit(ctx.state.user, before);
      const course = await content.outlineFor(before.courseId, ctx.state.user);
      return presentAssignment(await updateAssignment(deps, ctx.state.user, before, course, body));
    }),

    implement(declared.deleteAssignment, async (ctx, { params }) => {
      const doc = await loadAssignment(models, params.id);
      authorizeAssignmentEdit(ctx.state.user, doc);
      await deleteAssignment(deps, ctx.state.user, doc);
    }),

    implement(declared.extendAssignment, async (ctx, { params, body: { dueDate, userId } }) => {
      const doc = await loadAssignment(models, params.id);
      authorizeAssignmentEdit(ctx.state.user, doc);
      await extendAssignment(deps, ctx.state.user, doc, dueDate, userId);
      return presentAssignment(await loadAssignment(models, String(doc._id)));
    }),

    implement(declared.listAssignmentPeople, async (_ctx, { params, query: { page, limit, status, department } }) => {
      const doc = await loadAssignment(models, params.id);
      let body: Page<AssignmentPerson>;
      if (!status) {
        const found = await audiencePage(people, doc, page, limit, undefined, department);
        const statuses = await statusesFor(
          models,
          [doc],
          found.data.map((p) => p.id),
        );
        const data = found.data.map((p) => presentAssignmentPerson(p, statuses.get(`${String(doc._id)}|${p.id}`)!));
        body = { data, total: found.total, totalExact: found.totalExact, page, limit };
      } else {
        // A status is known only once computed: the audience is gone through a hundred at a time.
        const data: AssignmentPerson[] = [];
        let total = 0;
        for await (const row of audienceStatuses(deps, doc, department)) {
          if (row.status.status !== status) continue;
          if (total >= pageOffset({ page, limit }) && data.length < limit)
            data.push(presentAssignmentPerson(row.person, row.status));
          total += 1;
        }
        body = { data, total, page, limit };
      }
      // The certificates issued for the course to the people of this page: one read.
      const issued = await models.certificates
        .find(
          { courseId: doc.courseId, userId: op({ $in: body.data.map((p) => p.userId) }) },
          { number: 1, userId: 1, issuedAt: 1 },
        )
        .sort({ issuedAt: 1 })
        .lean<Array<{ number: string; userId: string }>>();
      const latest = new Map(issued.map((c) => [c.userId, c.number]));
      return { ...body, data: body.data.map((p) => ({ ...p, certificateNumber: latest.get(p.userId) ?? null })) };
    }),

    implement(declared.assignmentReport, async (_ctx, { params, query: { department } }) => {
      const doc = await loadAssignment(models, params.id);
      const body: AssignmentReport = await assignmentReport(deps, doc, department);
      return body;
    }),

    implement(declared.exportAssignmentPeople, async (ctx, { params, query: { format, tz, status, department }, record }) => {
      const doc = await loadAssignment(models, params.id);
      const rows = audienceStatuses(deps, doc, department);
      sendExport(ctx, format, {
        file: 'assignment',
        sheet: 'Назначение',
        columns: exportColumns(ASSIGNMENT_EXPORT_HEADER, EXPORT_COLUMN_WIDTHS),
        timeZone: tz,
        maxRows: EXPORT_MAX_ROWS,
        rows: (async function* () {
          for await (const { person, status: s } of rows) {
            if (status && s.status !== status) continue;
            yield [
              person.fullName,
              person.email,
              person.department ?? '',
              ASSIGNMENT_STATUS_LABELS[s.status],
              exportDay(s.dueDate),
              s.status === 'completed' ? null : s.daysLeft,
              s.completedAt ? new Date(s.completedAt) : null,
            ];
          }
        })(),
      });
      record({
        code: 'assignmentReport.exported',
        data: { course: doc.courseTitle, courseId: doc.courseId, file: exportFileName('assignment', format) },
        entityId: String(doc._id),
      });
    }),
  ];
}

export const assignmentsRouter = (service: ServiceContext, deps: AssignmentDeps): Router =>
  declaredRouter(service, assignmentRoutes(service, deps));
