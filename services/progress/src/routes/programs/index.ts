import type { Context } from 'koa';
import {
  EXPORT_MAX_ROWS,
  PROGRAM_EXPORT_HEADER,
  PROGRAM_MSG,
  PROGRAM_PERSON_STATUS_LABELS,
  STAGE_STATUS_LABELS,
  exportFileName,
  type Page,
  type ProgramAssignment,
} from '@portal/contracts';
import {
  assertExportable,
  badRequest,
  exportColumns,
  exportDay,
  forbidden,
  implement,
  notFound,
  readPage,
  sendExport,
  versionTag,
  type DeclaredHandler,
} from '@portal/service-kit';
import type { PeopleClient } from '../../clients/people';
import { assignedTo } from '../../commands/assignmentAudience';
import type { ProgressDeps } from '../../commands/deps';
import {
  createProgramAssignment,
  deleteProgramAssignment,
  extendStage,
  loadMember,
  loadProgramAssignment,
  peopleFilter,
  programOf,
  programPeoplePage,
} from '../../commands/programAssignments';
import { tallyReport } from '../../commands/programTallies';
import { membersOf } from '../../commands/programEnrolment';
import {
  copyProgram,
  copyTemplate,
  createProgram,
  listPrograms,
  loadProgram,
  setProgramStatus,
  updateProgram,
} from '../../commands/programs';
import { PROGRAM_TEMPLATES } from '../../commands/programTemplates';
import type { ProgramAssignmentDoc, ProgramDoc, ProgramMemberDoc } from '../../models/program';
import { authorizeProgramAssignmentEdit, canEditProgram } from '../../policies/programs';
import {
  presentMyProgramSummary,
  presentProgram,
  presentProgramAssignment,
  presentProgramPerson,
  presentProgramSummary,
} from '../../presenters/program';
import * as declared from './declarations';

export interface ProgramRouteDeps extends ProgressDeps {
  people: PeopleClient;
  /** Asks for a new assignment's audience to be enrolled (a job). */
  onProgramAssigned: (assignmentId: string) => void;
  /** Asks for a saved program's people to be computed again (a job). */
  onProgramSaved: (programId: string) => void;
}

/** Widths (characters) of PROGRAM_EXPORT_HEADER's columns in the XLSX. */
const EXPORT_COLUMN_WIDTHS = [32, 30, 24, 18, 32, 14, 12, 10, 17, 18];

/**
 * Learning programs: authors build and assign them, readers follow the reports, a learner sees their
 * own. The kit has authenticated, checked the roles and parsed the input when a handler runs; a
 * record's own rule (its author, its co-authors) is checked after it is loaded.
 */
export function programRoutes(deps: ProgramRouteDeps): DeclaredHandler[] {
  const { models } = deps;
  const outlines = (ctx: Context) => (courseId: string) => deps.content.outlineFor(courseId, ctx.state.user);

  /** A program as its reader sees it, its co-authors named (the auth service's internal route: no audit record). */
  async function present(ctx: Context, doc: ProgramDoc) {
    const people = doc.coAuthorIds.length ? await deps.people.users(doc.coAuthorIds) : [];
    return presentProgram(doc, ctx.state.user, new Map(people.map((p) => [p.id, p.fullName])));
  }

  /** Co-authors are curators: an id of anyone else (or of nobody) is refused before anything is written. */
  async function assertCurators(ids: readonly string[] | undefined) {
    if (!ids?.length) return;
    const found = await deps.people.users([...ids]);
    if (ids.some((id) => found.find((p) => p.id === id)?.role !== 'CURATOR')) {
      throw badRequest(PROGRAM_MSG.coAuthorNotCurator, 'coAuthorIds');
    }
  }

  async function editable(ctx: Context, id: string) {
    const doc = await loadProgram(models, id);
    if (!canEditProgram(ctx.state.user, doc)) throw forbidden(PROGRAM_MSG.notYours);
    return doc;
  }

  async function personOf(assignment: ProgramAssignmentDoc, member: ProgramMemberDoc) {
    const program = await loadProgram(models, assignment.programId);
    return {
      ...(await programOf(models, assignment, program, member)),
      person: { id: member.userId, fullName: member.fullName, email: member.email, department: member.department },
    };
  }

  return [
    // Before /:id, which these paths would otherwise match.
    implement(declared.listProgramTemplates, () => PROGRAM_TEMPLATES),
    implement(declared.copyProgramTemplate, async (ctx, { params }) =>
      present(ctx, await copyTemplate(deps, ctx.state.user, params.key)),
    ),
    implement(declared.listMyPrograms, async (ctx, { query: { page, limit } }) => {
      const me = ctx.state.user;
      const { rows, ...counted } = await readPage(
        models.programAssignments,
        assignedTo(me),
        { page, limit },
        { createdAt: -1, _id: -1 },
      );
      const { members, programs } = await membersOf(deps, me, rows);
      const data = rows.flatMap((a) => {
        const member = members.find((m) => m.assignmentId === String(a._id));
        return member ? [presentMyProgramSummary(a, programs.get(a.programId), member)] : [];
      });
      return { data, ...counted, page, limit };
    }),
    implement(declared.getMyProgram, async (ctx, { params }) => {
      const me = ctx.state.user;
      const assignment = await models.programAssignments
        .findOne({ _id: params.assignmentId, ...assignedTo(me) })
        .lean<ProgramAssignmentDoc>();
      if (!assignment) throw notFound(PROGRAM_MSG.notFound);
      const { members, programs } = await membersOf(deps, me, [assignment]);
      const program = programs.get(assignment.programId);
      if (!members[0] || !program) throw notFound(PROGRAM_MSG.notFound);
      return programOf(models, assignment, program, members[0]);
    }),

    implement(declared.listPrograms, async (ctx, { query }) => {
      const { rows, ...counted } = await listPrograms(models, query);
      return {
        data: rows.map((p) => presentProgramSummary(p, ctx.state.user)),
        ...counted,
        page: query.page,
        limit: query.limit,
      };
    }),
    implement(declared.createProgram, async (ctx, { body }) => {
      await assertCurators(body.coAuthorIds);
      return present(ctx, await createProgram(deps, ctx.state.user, body, outlines(ctx)));
    }),
    implement(declared.getProgram, async (ctx, { params }) => {
      const doc = await loadProgram(models, params.id);
      ctx.set('ETag', versionTag(doc.version ?? 0));
      return present(ctx, doc);
    }),
    implement(declared.updateProgram, async (ctx, { params, body, expected }) => {
      const before = await loadProgram(models, params.id);
      await assertCurators(body.coAuthorIds?.filter((id) => !before.coAuthorIds.includes(id)));
      const after = await updateProgram(deps, ctx.state.user, before, body, expected, outlines(ctx));
      deps.onProgramSaved(String(after._id));
      ctx.set('ETag', versionTag(after.version ?? 0));
      return present(ctx, after);
    }),
    implement(declared.copyProgram, async (ctx, { params }) =>
      present(ctx, await copyProgram(deps, ctx.state.user, await loadProgram(models, params.id))),
    ),
    implement(declared.archiveProgram, async (ctx, { params }) =>
      present(ctx, await setProgramStatus(deps, ctx.state.user, await editable(ctx, params.id), 'archived')),
    ),
    implement(declared.restoreProgram, async (ctx, { params }) =>
      present(ctx, await setProgramStatus(deps, ctx.state.user, await editable(ctx, params.id), 'active')),
    ),

    implement(declared.listProgramAssignments, async (_ctx, { query: { page, limit, programId } }) => {
      const filter = programId ? { programId } : {};
      const { rows, ...counted } = await readPage(models.programAssignments, filter, { page, limit }, { createdAt: -1, _id: -1 });
      const body: Page<ProgramAssignment> = { data: rows.map(presentProgramAssignment), ...counted, page, limit };
      return body;
    }),
    implement(declared.createProgramAssignment, async (ctx, { body }) => {
      const program = await loadProgram(models, body.programId);
      const doc = await createProgramAssignment(deps, ctx.state.user, program, body);
      deps.onProgramAssigned(String(doc._id));
      return presentProgramAssignment(doc);
    }),
    implement(declared.getProgramAssignment, async (_ctx, { params }) =>
      presentProgramAssignment(await loadProgramAssignment(models, params.id)),
    ),
    implement(declared.deleteProgramAssignment, async (ctx, { params }) => {
      const doc = await loadProgramAssignment(models, params.id);
      authorizeProgramAssignmentEdit(ctx.state.user, doc);
      await deleteProgramAssignment(deps, ctx.state.user, doc);
    }),
    implement(declared.extendProgramStage, async (ctx, { params, body }) => {
      const assignment = await loadProgramAssignment(models, params.id);
      authorizeProgramAssignmentEdit(ctx.state.user, assignment);
      const program = await loadProgram(models, assignment.programId);
      const member = await extendStage(deps, ctx.state.user, assignment, program, body);
      return personOf(assignment, member);
    }),
    implement(declared.programAssignmentReport, async (_ctx, { params, query }) => {
      const assignment = await loadProgramAssignment(models, params.id);
      return tallyReport(models, params.id, await loadProgram(models, assignment.programId), query.department);
    }),
    implement(declared.listProgramPeople, async (_ctx, { params, query: { page, limit, ...filters } }) => {
      const assignment = await loadProgramAssignment(models, params.id);
      const program = await loadProgram(models, assignment.programId);
      const { rows, total } = await programPeoplePage(models, params.id, filters, { page, limit });
      return { data: rows.map((m) => presentProgramPerson(program, m)), total, page, limit };
    }),
    implement(declared.getProgramPerson, async (_ctx, { params }) => {
      const assignment = await loadProgramAssignment(models, params.id);
      return personOf(assignment, await loadMember(models, params.id, params.userId));
    }),
    /** program_report.csv or .xlsx: the people the filters select, by name, with where each stands. */
    implement(declared.exportProgramPeople, async (ctx, { params, query: { format, tz, ...filters }, record }) => {
      const assignment = await loadProgramAssignment(models, params.id);
      const program = await loadProgram(models, assignment.programId);
      const filter = peopleFilter(params.id, filters);
      await assertExportable(models.programMembers, filter);
      const cursor = models.programMembers
        .find(filter)
        .sort({ fullName: 1, _id: 1 })
        .limit(EXPORT_MAX_ROWS)
        .lean<ProgramMemberDoc[]>()
        .cursor({ batchSize: 200 });
      sendExport(ctx, format, {
        file: 'program',
        sheet: 'Программа',
        columns: exportColumns(PROGRAM_EXPORT_HEADER, EXPORT_COLUMN_WIDTHS),
        timeZone: tz,
        rows: (async function* () {
          for await (const m of cursor) {
            const p = presentProgramPerson(program, m);
            yield [
              p.fullName,
              p.email,
              p.department,
              PROGRAM_PERSON_STATUS_LABELS[p.status],
              p.currentStage?.title ?? null,
              p.currentStage ? STAGE_STATUS_LABELS[p.currentStage.status] : null,
              p.currentStage?.dueDate ? exportDay(p.currentStage.dueDate) : null,
              p.stagesCompleted,
              m.completedAt,
              p.certificateNumber,
            ];
          }
        })(),
      });
      record({
        code: 'programReport.exported',
        data: { program: program.title, programId: assignment.programId, file: exportFileName('program', format) },
        entityId: params.id,
      });
    }),
  ];
}
