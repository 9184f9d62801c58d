import Router from '@koa/router';
import { z } from 'zod';
import {
  ASSIGNMENT_EXPORT_HEADER,
  ASSIGNMENT_MSG,
  ASSIGNMENT_STATUS_LABELS,
  EXPORT_MAX_ROWS,
  STUDY_ROLES,
  assignmentCreateSchema,
  assignmentExportQuerySchema,
  exportFileName,
  assignmentExtendSchema,
  assignmentListQuerySchema,
  assignmentPeopleQuerySchema,
  assignmentStaffQuerySchema,
  assignmentUpdateSchema,
  entityIdField,
  pageOffset,
  type Assignment,
  type AssignmentPerson,
  type AssignmentReport,
  type MyAssignment,
  type Page,
  type PersonAssignments,
} from '@portal/contracts';
import {
  exportColumns,
  exportDay,
  idempotent,
  notFound,
  op,
  parse,
  readPage,
  requireRole,
  sendExport,
  type ServiceContext,
} from '@portal/service-kit';
import type { PeopleClient } from '../../clients/people';
import {
  assignedTo,
  assignmentReport,
  audiencePage,
  audienceStatuses,
  createAssignment,
  deleteAssignment,
  extendAssignment,
  loadAssignment,
  statusesFor,
  updateAssignment,
} from '../../commands/assignments';
import type { ProgressDeps } from '../../commands/deps';
import { ASSIGN_ROLES, ASSIGNMENT_READ_ROLES, authorizeAssignmentEdit } from '../../policies/assignments';
import { presentAssignment, presentAssignmentPerson, presentMyAssignment } from '../../presenters/assignment';

const myQuerySchema = assignmentListQuerySchema.extend({ courseId: entityIdField('courseId').optional() });
const idParam = z.string().max(100);
const reportQuerySchema = z.object({ department: z.string().trim().min(1).max(120).optional() });
/** Widths (characters) of ASSIGNMENT_EXPORT_HEADER's columns in the XLSX. */
const EXPORT_COLUMN_WIDTHS = [32, 30, 24, 14, 12, 14, 17];

/** Training assignments: curators and administrators assign, the manager reads, a learner sees their own. */
export function assignmentsRouter(
  service: ServiceContext,
  deps: ProgressDeps & {
    people: PeopleClient;
    /** Asks for the «назначен» notifications of a new assignment. */ onAssigned?: (id: string) => void;
  },
): Router {
  const router = new Router({ prefix: '/api/assignments' });
  const { models, content, people, audit } = deps;
  router.use(service.authenticate);

  /** A page of the assignments that reach one person, the earliest due first, with how many there are. */
  const reaching = (filter: Record<string, unknown>, page: number, limit: number) =>
    readPage(models.assignments, filter, { page, limit }, { dueDate: 1, _id: 1 });

  /** The signed-in learner's assignments, the earliest due first, each with their status. */
  router.get('/my', requireRole(...STUDY_ROLES), async (ctx) => {
    const { page, limit, courseId } = parse(myQuerySchema, ctx.query);
    const me = ctx.state.user;
    const filter = courseId ? { ...assignedTo(me), courseId } : assignedTo(me);
    const { rows, ...counted } = await reaching(filter, page, limit);
    const statuses = await statusesFor(models, rows, [me.id]);
    const data = rows
      .map((doc) => presentMyAssignment(doc, statuses.get(`${String(doc._id)}|${me.id}`)!))
      // A personal extension or a recurrence moves a person's day: the page is in their own order.
      .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
    const body: Page<MyAssignment> = { data, ...counted, page, limit };
    ctx.body = body;
  });

  /** One person's drill-down: every assignment that reaches them, the earliest due first, with their status. */
  router.get('/person/:userId', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    const userId = parse(entityIdField('userId'), ctx.params.userId);
    const { page, limit } = parse(assignmentListQuerySchema, ctx.query);
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
    ctx.body = body;
  });

  router.get('/', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    const { page, limit, courseId, dueFrom, dueTo } = parse(assignmentStaffQuerySchema, ctx.query);
    const filter: Record<string, unknown> = courseId ? { courseId } : {};
    if (dueFrom || dueTo) filter.dueDate = op({ ...(dueFrom ? { $gte: dueFrom } : {}), ...(dueTo ? { $lte: dueTo } : {}) });
    const { rows, ...counted } = await readPage(models.assignments, filter, { page, limit }, { createdAt: -1, _id: -1 });
    const body: Page<Assignment> = { data: rows.map(presentAssignment), ...counted, page, limit };
    ctx.body = body;
  });

  /** 201 with a new assignment, or 200 with the identical one that exists (same course, audience and day). */
  router.post('/', requireRole(...ASSIGN_ROLES), idempotent(service), async (ctx) => {
    const input = parse(assignmentCreateSchema, ctx.request.body);
    const course = await content.getOutline(input.courseId, ctx.get('authorization'));
    const { doc, created } = await createAssignment(deps, ctx.state.user, course, input);
    if (created) deps.onAssigned?.(String(doc._id));
    ctx.status = created ? 201 : 200;
    ctx.body = presentAssignment(doc);
  });

  router.get('/:id', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    ctx.body = presentAssignment(await loadAssignment(models, parse(idParam, ctx.params.id)));
  });

  router.patch('/:id', requireRole(...ASSIGN_ROLES), async (ctx) => {
    const before = await loadAssignment(models, parse(idParam, ctx.params.id));
    authorizeAssignmentEdit(ctx.state.user, before);
    const input = parse(assignmentUpdateSchema, ctx.request.body);
    const course = await content.getOutline(before.courseId, ctx.get('authorization'));
    ctx.body = presentAssignment(await updateAssignment(deps, ctx.state.user, before, course, input));
  });

  router.delete('/:id', requireRole(...ASSIGN_ROLES), async (ctx) => {
    const doc = await loadAssignment(models, parse(idParam, ctx.params.id));
    authorizeAssignmentEdit(ctx.state.user, doc);
    await deleteAssignment(deps, ctx.state.user, doc);
    ctx.status = 204;
  });

  /** A later due date for everyone, or for one person (`userId`). */
  router.post('/:id/extend', requireRole(...ASSIGN_ROLES), async (ctx) => {
    const doc = await loadAssignment(models, parse(idParam, ctx.params.id));
    authorizeAssignmentEdit(ctx.state.user, doc);
    const { dueDate, userId } = parse(assignmentExtendSchema, ctx.request.body);
    await extendAssignment(deps, ctx.state.user, doc, dueDate, userId);
    ctx.body = presentAssignment(await loadAssignment(models, String(doc._id)));
  });

  /** One page of the people it reaches (as they are now), each with their status; filters: status, department. */
  router.get('/:id/people', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    const doc = await loadAssignment(models, parse(idParam, ctx.params.id));
    const { page, limit, status, department } = parse(assignmentPeopleQuerySchema, ctx.query);
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
    ctx.body = { ...body, data: body.data.map((p) => ({ ...p, certificateNumber: latest.get(p.userId) ?? null })) };
  });

  /** Counts by status, the percent completed and completions per day (ADMIN, CURATOR, MANAGER). */
  router.get('/:id/report', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    const doc = await loadAssignment(models, parse(idParam, ctx.params.id));
    const { department } = parse(reportQuerySchema, ctx.query);
    const body: AssignmentReport = await assignmentReport(deps, doc, department);
    ctx.body = body;
  });

  /** assignment_report.csv or .xlsx: its people as the filters select them, with their status. */
  router.get('/:id/people/export', requireRole(...ASSIGNMENT_READ_ROLES), async (ctx) => {
    const doc = await loadAssignment(models, parse(idParam, ctx.params.id));
    const { format, tz, status, department } = parse(assignmentExportQuerySchema, ctx.query);
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
    audit.publish({
      action: 'read',
      entity: 'assignment',
      entityId: String(doc._id),
      details: `Выгрузка отчёта по назначению курса «${doc.courseTitle}» в ${exportFileName('assignment', format)}`,
      actor: ctx.state.user,
    });
  });

  return router;
}
