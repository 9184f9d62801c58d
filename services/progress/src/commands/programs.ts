import { randomBytes } from 'node:crypto';
import { isValidObjectId } from 'mongoose';
import { z } from 'zod';
import { PROGRAM_MSG, type CourseOutline, type programInputSchema } from '@portal/contracts';
import {
  HttpError,
  assertVersion,
  badRequest,
  escapeRegExp,
  forbidden,
  notFound,
  readPage,
  writeVersioned,
  type Principal,
} from '@portal/service-kit';
import type { ProgressModels } from '../models';
import type { ProgramDoc, StageCourseDoc, StageDoc } from '../models/program';
import { canEditProgram } from '../policies/programs';
import { courseSnapshot } from './assignments';
import type { ProgressDeps } from './deps';
import { PROGRAM_TEMPLATES } from './programTemplates';
import { changed } from './changes';

type ParsedProgram = z.output<typeof programInputSchema>;

/** Reads a course's outline as its author sees it (their own token: the content service's rule). */
export type OutlineReader = (courseId: string) => Promise<CourseOutline>;

const newStageKey = () => `s${randomBytes(6).toString('hex')}`;

export async function loadProgram(models: ProgressModels, id: string): Promise<ProgramDoc> {
  const doc = isValidObjectId(id) ? await models.programs.findById(id).lean<ProgramDoc>() : null;
  if (!doc) throw notFound(PROGRAM_MSG.notFound);
  return doc;
}

/** Outlines read at once while a program is saved (a program holds at most 20 × 20 courses). */
const OUTLINE_CONCURRENCY = 6;

/**
 * The stages as stored: each course with its title, lessons and whether it is published, read from
 * the content service. A course added now must be published; one that was in the program before and
 * has since been unpublished stays, marked, so the author sees it and an earlier save is never lost.
 */
async function resolveStages(
  input: ParsedProgram['stages'],
  readOutline: OutlineReader,
  before: ProgramDoc | null,
): Promise<StageDoc[]> {
  const had = new Set(before?.courseIds ?? []);
  const ids = [...new Set(input.flatMap((s) => s.courseIds))];
  const courses = new Map<string, StageCourseDoc>();
  for (let i = 0; i < ids.length; i += OUTLINE_CONCURRENCY) {
    await Promise.all(
      ids.slice(i, i + OUTLINE_CONCURRENCY).map(async (id) => {
        let outline: CourseOutline;
        try {
          outline = await readOutline(id);
        } catch (err) {
          if (err instanceof HttpError && err.statusCode === 404) throw badRequest(PROGRAM_MSG.courseNotFound, 'stages');
          throw err;
        }
        const published = outline.status === 'published';
        if (!published && !had.has(id)) throw badRequest(PROGRAM_MSG.courseNotPublished(outline.title), 'stages');
        const snap = courseSnapshot(outline);
        courses.set(id, {
          courseId: id,
          title: outline.title,
          published,
          lessonIds: snap.lessonIds,
          quizLessonIds: snap.quizLessonIds,
        });
      }),
    );
  }
  return input.map((s) => ({
    key: s.key ?? newStageKey(),
    title: s.title,
    courses: s.courseIds.map((id) => courses.get(id)!),
    required: s.required !== null && s.required >= s.courseIds.length ? null : s.required,
    dueDays: s.dueDays,
    dueFrom: s.dueFrom,
    locked: s.locked,
  }));
}

const courseIdsOf = (stages: StageDoc[]) => stages.flatMap((s) => s.courses.map((c) => c.courseId));

/** A stage's lock is kept only where a previous stage exists (the schema refuses it on the first). */
export const lockedCourseIdsOf = (stages: StageDoc[]) =>
  stages.flatMap((s, i) => (i > 0 && s.locked ? s.courses.map((c) => c.courseId) : []));

/** The fields an edit changed, before and after, for its audit event. */
function changesOf(before: ProgramDoc, after: ProgramDoc) {
  return {
    ...changed('title', before.title, after.title),
    ...changed('certificate', before.certificate ?? false, after.certificate ?? false),
    ...changed('stages', before.stages.length, after.stages.length),
    ...changed('courses', before.courseIds.length, after.courseIds.length),
  };
}

export async function createProgram(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  input: ParsedProgram,
  readOutline: OutlineReader,
): Promise<ProgramDoc> {
  const stages = await resolveStages(input.stages, readOutline, null);
  const created = await deps.models.programs.create({
    title: input.title,
    description: input.description,
    certificate: input.certificate,
    status: 'active',
    stages,
    owner: { id: actor.id, fullName: actor.fullName },
    coAuthorIds: input.coAuthorIds ?? [],
    courseIds: courseIdsOf(stages),
  });
  const doc = created.toObject<ProgramDoc>();
  deps.audit.publish({
    code: 'program.created',
    data: { title: doc.title, stages: stages.length },
    entityId: String(doc._id),
    actor,
  });
  return doc;
}

/**
 * Saves the whole program from the version the author read (412 when someone saved in between).
 * Its assignments take the new title and locks at once; its people's stages are computed again by
 * `recomputeProgram` (the caller asks for it), since a stage or a rule may have changed.
 */
export async function updateProgram(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  before: ProgramDoc,
  input: ParsedProgram,
  expected: number[] | undefined,
  readOutline: OutlineReader,
): Promise<ProgramDoc> {
  assertVersion(before, expected);
  if (!canEditProgram(actor, before)) throw forbidden(PROGRAM_MSG.notYours);
  if (before.status === 'archived') throw badRequest(PROGRAM_MSG.archived);
  const coAuthorIds = input.coAuthorIds ?? before.coAuthorIds;
  const coAuthorsChanged = [...coAuthorIds].sort().join() !== [...before.coAuthorIds].sort().join();
  if (coAuthorsChanged && actor.role !== 'ADMIN' && actor.id !== before.owner.id) throw forbidden(PROGRAM_MSG.coAuthorsOwnerOnly);
  const stages = await resolveStages(input.stages, readOutline, before);
  const changes = {
    title: input.title,
    description: input.description,
    certificate: input.certificate,
    stages,
    coAuthorIds,
    courseIds: courseIdsOf(stages),
  };
  if (!(await writeVersioned(deps.models.programs, before, expected, { $set: changes }))) throw notFound(PROGRAM_MSG.notFound);
  await deps.models.programAssignments.updateMany(
    { programId: String(before._id) },
    { $set: { programTitle: input.title, lockedCourseIds: lockedCourseIdsOf(stages) } },
  );
  const after = await loadProgram(deps.models, String(before._id));
  deps.audit.publish({
    code: 'program.updated',
    data: { title: after.title, stages: stages.length, courses: after.courseIds.length, changes: changesOf(before, after) },
    entityId: String(after._id),
    actor,
  });
  return after;
}

/** «Копировать»: the same stages and courses, a new title, owned by whoever copies it. */
export async function copyProgram(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  source: ProgramDoc,
): Promise<ProgramDoc> {
  const created = await deps.models.programs.create({
    title: `${source.title} (копия)`.slice(0, 200),
    description: source.description,
    certificate: source.certificate,
    status: 'active',
    stages: source.stages.map((s) => ({ ...s, key: newStageKey() })),
    owner: { id: actor.id, fullName: actor.fullName },
    coAuthorIds: [],
    courseIds: source.courseIds,
  });
  const doc = created.toObject<ProgramDoc>();
  deps.audit.publish({
    code: 'program.copied',
    data: { title: doc.title, source: source.title, sourceId: String(source._id) },
    entityId: String(doc._id),
    actor,
  });
  return doc;
}

/** A template's stages and deadlines as a new program of the caller's, with no courses yet. */
export async function copyTemplate(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  key: string,
): Promise<ProgramDoc> {
  const template = PROGRAM_TEMPLATES.find((t) => t.key === key);
  if (!template) throw notFound(PROGRAM_MSG.templateNotFound);
  const created = await deps.models.programs.create({
    title: template.title,
    description: template.description,
    certificate: false,
    status: 'active',
    stages: template.stages.map((s) => ({ ...s, key: newStageKey(), courses: [] })),
    owner: { id: actor.id, fullName: actor.fullName },
    coAuthorIds: [],
    courseIds: [],
  });
  const doc = created.toObject<ProgramDoc>();
  deps.audit.publish({
    code: 'program.created',
    data: { title: doc.title, fromTemplate: true, template: key },
    entityId: String(doc._id),
    actor,
  });
  return doc;
}

/** «В архив» and back: an archived program is not assigned again; its assignments keep running. */
export async function setProgramStatus(
  deps: Pick<ProgressDeps, 'models' | 'audit'>,
  actor: Principal,
  doc: ProgramDoc,
  status: ProgramDoc['status'],
): Promise<ProgramDoc> {
  if (!canEditProgram(actor, doc)) throw forbidden(PROGRAM_MSG.notYours);
  if (doc.status !== status) {
    await writeVersioned(deps.models.programs, doc, undefined, { $set: { status } });
    deps.audit.publish({
      code: status === 'archived' ? 'program.archived' : 'program.restored',
      data: { title: doc.title },
      entityId: String(doc._id),
      actor,
    });
  }
  return loadProgram(deps.models, String(doc._id));
}

/** A page of programs: active or archived, by a search in the title, the latest changed first. */
export function listPrograms(
  models: ProgressModels,
  { page, limit, search, status }: { page: number; limit: number; search?: string; status: ProgramDoc['status'] },
) {
  const filter: Record<string, unknown> = { status };
  if (search) filter.title = new RegExp(escapeRegExp(search), 'i');
  return readPage(models.programs, filter, { page, limit }, { updatedAt: -1, _id: -1 });
}
