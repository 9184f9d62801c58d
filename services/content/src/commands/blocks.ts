import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { z } from 'zod';
import {
  CONTENT_MSG,
  DEFAULT_BLOCK_CONTENT,
  formatMessage,
  lessonContentSchema,
  moduleContentSchema,
  nextAutoName,
  type AuditCode,
  type BlockRecordType,
  type ContentBlock,
  type blockCreateSchema,
  type blockReorderSchema,
  type blockUpdateSchema,
} from '@portal/contracts';
import {
  assertVersion,
  badRequest,
  conflict,
  isDuplicateKey,
  notFound,
  op,
  parse,
  updateEach,
  writeVersioned,
} from '@portal/service-kit';
import type { ContentModels } from '../models';
import { authorizeCourseEdit } from '../policies/courses';
import { assertCourseEditable } from './ownership';
import { lessonContentFields, type BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { touchCourse } from './courses';
import { changesOf, recordAudit, type CommandDeps } from './deps';
import { readBlockId, readCourseId, readId } from './ids';
import { richHtmlToText, sanitizeRichHtml } from './richText';

type CreateInput = z.output<typeof blockCreateSchema>;
type UpdateInput = z.output<typeof blockUpdateSchema>;
type ReorderInput = z.output<typeof blockReorderSchema>;
type ParsedContentBlock = z.output<typeof lessonContentSchema>[number];

/** A module's or lesson's made, changed and removed, as the audit trail names them. */
const EVENT = {
  MODULE: { created: 'module.created', updated: 'module.updated', deleted: 'module.deleted' },
  LESSON: { created: 'lesson.created', updated: 'lesson.updated', deleted: 'lesson.deleted' },
} as const satisfies Record<BlockRecordType, Record<'created' | 'updated' | 'deleted', AuditCode>>;

/** Parses one field so that a problem is reported under that field's name (content.2.type, not 2.type). */
const parseField = <S extends z.ZodType>(field: string, schema: S, value: unknown): z.output<S> =>
  (parse(z.object({ [field]: schema }), { [field]: value }) as Record<string, z.output<S>>)[field];

/**
 * Content blocks as stored: sorted by order (blocks without one keep their place after those with
 * one), renumbered 1..n, every block with an id, and lessonId pointing at the lesson.
 */
export function normalizeContentBlocks(blocks: ParsedContentBlock[], lessonId: string): ContentBlock[] {
  const seen = new Set<string>();
  blocks.forEach((b, i) => {
    if (b.id === undefined) return;
    if (seen.has(b.id)) throw badRequest(formatMessage(CONTENT_MSG.blockIdDuplicate, { id: b.id }), `content.${i}.id`);
    seen.add(b.id);
  });
  return blocks
    .map((b, index) => ({ b, index }))
    .sort((x, y) => (x.b.order ?? Infinity) - (y.b.order ?? Infinity) || x.index - y.index)
    .map(({ b }, i) => ({
      id: b.id ?? randomUUID(),
      type: b.type,
      order: i + 1,
      lessonId,
      content: contentOf(b),
    })) as ContentBlock[];
}

/** A block's content as stored; a text block's html sanitised, its text the html's plain rendition (docs/frontend.md «Rich text»). */
function contentOf(b: ParsedContentBlock) {
  const content = b.content ?? DEFAULT_BLOCK_CONTENT[b.type];
  if (b.type !== 'text' || !('html' in content) || typeof content.html !== 'string') return content;
  const html = sanitizeRichHtml(content.html);
  return html ? { text: richHtmlToText(html), html } : { text: '' };
}

export const siblingsOf = (b: Pick<BlockDoc, 'type' | 'courseId' | 'moduleId'>) =>
  b.type === 'MODULE' ? { courseId: b.courseId, type: 'MODULE' as const } : { type: 'LESSON' as const, moduleId: b.moduleId };

/** Positions 0..n-1 without gaps among siblings; `pin` puts one of them at a given index. */
export async function renumber(
  models: ContentModels,
  filter: Record<string, unknown>,
  pin?: { id: Types.ObjectId; index: number },
): Promise<void> {
  const rows = await models.blocks
    .find(filter)
    .sort({ position: 1, createdAt: 1, _id: 1 })
    .select({ position: 1 })
    .lean<Pick<BlockDoc, '_id' | 'position'>[]>();
  let order = rows;
  if (pin) {
    const pinned = rows.find((r) => r._id.equals(pin.id));
    if (pinned) {
      order = rows.filter((r) => r !== pinned);
      order.splice(Math.min(pin.index, order.length), 0, pinned);
    }
  }
  const writes = order
    .map((r, index) => ({ r, index }))
    .filter(({ r, index }) => r.position !== index)
    .map(({ r, index }) => ({ updateOne: { filter: { _id: r._id }, update: { $set: { position: index } } } }));
  await updateEach(models.blocks, writes);
}

export async function loadModuleOf(models: ContentModels, rawId: unknown, course: Pick<CourseDoc, '_id'>): Promise<BlockDoc> {
  const mod = await models.blocks.findById(readId(rawId, 'moduleId', CONTENT_MSG.moduleNotFound)).lean<BlockDoc>();
  if (!mod || mod.type !== 'MODULE') throw notFound(CONTENT_MSG.moduleNotFound);
  if (!mod.courseId.equals(course._id)) throw badRequest(CONTENT_MSG.moduleOfOtherCourse, 'moduleId');
  return mod;
}

export async function createBlock(deps: CommandDeps, input: CreateInput): Promise<BlockDoc> {
  const { models } = deps;
  const course = await models.courses.findById(readCourseId(input.courseId)).lean<CourseDoc>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  authorizeCourseEdit(deps.actor, course);
  const moduleId = input.type === 'LESSON' ? (await loadModuleOf(models, input.moduleId, course))._id : null;
  const _id = input.id ? new Types.ObjectId(input.id) : new Types.ObjectId();
  const siblings = siblingsOf({ type: input.type, courseId: course._id, moduleId });
  // The same create asked again (its id chosen by the client): the record the first ask made.
  const made = input.id ? await models.blocks.findById(_id).lean<BlockDoc>() : null;
  if (made) return createdBefore(deps, made, { type: input.type, courseId: course._id, moduleId });

  let title = input.title;
  if (title === undefined) {
    // Auto-names count across the whole course, so two modules never both read 'урок_1'.
    const titles = await models.blocks
      .find({ courseId: course._id, type: input.type })
      .select({ title: 1 })
      .lean<{ title: string }[]>();
    title = nextAutoName(
      input.type,
      titles.map((t) => t.title),
    );
  }
  const content =
    input.type === 'MODULE'
      ? { content: input.content ?? input.description ?? '' }
      : lessonContentFields(normalizeContentBlocks(input.content ?? [], String(_id)));
  const count = await models.blocks.countDocuments(siblings);
  // A module goes after the others; a lesson after the highest position in its module.
  const position = Math.min(input.position ?? count, count);

  try {
    await models.blocks.create({
      _id,
      type: input.type,
      courseId: course._id,
      moduleId,
      title,
      description: input.type === 'LESSON' ? (input.description ?? '') : '',
      ...content,
      position,
      status: input.status ?? 'draft',
    });
  } catch (err) {
    // Two asks of one create at the same moment: the second finds what the first made.
    const first = input.id && isDuplicateKey(err) ? await models.blocks.findById(_id).lean<BlockDoc>() : null;
    if (!first) throw err;
    return createdBefore(deps, first, { type: input.type, courseId: course._id, moduleId });
  }
  await renumber(models, siblings, { id: _id, index: position });
  await touchCourse(models, course._id);
  const inCourse = { title, course: course.title, courseId: String(course._id) };
  recordAudit(
    deps,
    input.type === 'MODULE'
      ? { code: EVENT.MODULE.created, data: inCourse, entityId: String(_id) }
      : { code: EVENT.LESSON.created, data: { ...inCourse, moduleId: String(moduleId) }, entityId: String(_id) },
  );
  return (await models.blocks.findById(_id).lean<BlockDoc>()) as BlockDoc;
}

/**
 * A create asked again finds its record: the same kind in the same place is answered as it is now,
 * after the steps the first ask may not have finished (its place among its siblings, the course's
 * time); it is audited once, by the first. An id held by anything else is refused.
 */
async function createdBefore(
  deps: CommandDeps,
  made: BlockDoc,
  asked: Pick<BlockDoc, 'type' | 'courseId' | 'moduleId'>,
): Promise<BlockDoc> {
  const same =
    made.type === asked.type &&
    String(made.courseId) === String(asked.courseId) &&
    String(made.moduleId) === String(asked.moduleId);
  if (!same) throw conflict(CONTENT_MSG.blockIdTaken, 'id');
  await renumber(deps.models, siblingsOf(made), { id: made._id, index: made.position });
  await touchCourse(deps.models, made.courseId);
  return (await deps.models.blocks.findById(made._id).lean<BlockDoc>()) ?? made;
}

export async function loadBlock(models: ContentModels, rawId: unknown): Promise<BlockDoc> {
  const block = await models.blocks.findById(readBlockId(rawId)).lean<BlockDoc>();
  if (!block) throw notFound(CONTENT_MSG.blockNotFound);
  return block;
}

/** `expected`: the versions the author's copy was based on (412 when the record moved on since). */
export async function updateBlock(deps: CommandDeps, rawId: unknown, input: UpdateInput, expected?: number[]): Promise<BlockDoc> {
  const { models } = deps;
  const block = await loadBlock(models, rawId);
  await assertCourseEditable(models, deps.actor, block.courseId);
  assertVersion(block, expected);
  if (input.type !== undefined && input.type !== block.type) throw badRequest(CONTENT_MSG.recordTypeChange, 'type');
  const changes: Partial<BlockDoc> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.status !== undefined) changes.status = input.status;
  if (block.type === 'MODULE') {
    // A module's content is its description: either name sets it.
    const description =
      input.content !== undefined ? parseField('content', moduleContentSchema, input.content) : input.description;
    if (description !== undefined) changes.content = description ?? '';
  } else {
    if (input.description !== undefined) changes.description = input.description ?? '';
    if (input.content !== undefined) {
      Object.assign(
        changes,
        lessonContentFields(normalizeContentBlocks(parseField('content', lessonContentSchema, input.content), String(block._id))),
      );
    }
  }
  if (!(await writeVersioned(models.blocks, block, expected, { $set: changes }))) throw notFound(CONTENT_MSG.blockNotFound);
  await touchCourse(models, block.courseId);
  const after = (await models.blocks.findById(block._id).lean<BlockDoc>()) as BlockDoc;
  recordAudit(deps, {
    code: EVENT[block.type].updated,
    data: { title: after.title, courseId: String(block.courseId), changes: changesOf(block, after, ['title', 'status']) },
    entityId: String(block._id),
  });
  return after;
}

/** A module takes its lessons with it; the siblings close the gap. */
export async function deleteBlock(deps: CommandDeps, rawId: unknown): Promise<BlockDoc> {
  const { models } = deps;
  const block = await loadBlock(models, rawId);
  await assertCourseEditable(models, deps.actor, block.courseId);
  await models.blocks.deleteOne({ _id: block._id });
  if (block.type === 'MODULE') await models.blocks.deleteMany({ moduleId: block._id });
  await renumber(models, siblingsOf(block));
  await touchCourse(models, block.courseId);
  recordAudit(deps, {
    code: EVENT[block.type].deleted,
    data: { title: block.title, courseId: String(block.courseId) },
    entityId: String(block._id),
  });
  return block;
}

type Placed = Pick<BlockDoc, '_id' | 'type' | 'moduleId' | 'position' | 'courseId' | 'title'>;

/**
 * POST /blocks/reorder. Each listed block goes to the given index among its siblings (a lesson
 * may name a new module of the same course); unlisted siblings keep their order around them; every
 * affected list is renumbered 0..n-1.
 */
export async function reorderBlocks(deps: CommandDeps, input: ReorderInput): Promise<Types.ObjectId> {
  const { models } = deps;
  const ids = input.blocks.map((b, i) => readId(b.id, `blocks.${i}.id`, CONTENT_MSG.blockNotFound));
  const listed = await models.blocks
    .find({ _id: op({ $in: ids }) })
    .select({ type: 1, moduleId: 1, position: 1, courseId: 1 })
    .lean<Placed[]>();
  if (listed.length !== ids.length) throw notFound(CONTENT_MSG.blockNotFound);
  const courseId = listed[0].courseId;
  if (listed.some((b) => !b.courseId.equals(courseId))) throw badRequest(CONTENT_MSG.reorderOneCourse, 'blocks');
  const course = await models.courses.findById(courseId).lean<CourseDoc>();
  if (!course) throw notFound(CONTENT_MSG.courseNotFound);
  authorizeCourseEdit(deps.actor, course);

  const all = await models.blocks
    .find({ courseId })
    .select({ type: 1, moduleId: 1, position: 1, courseId: 1, title: 1 })
    .lean<Placed[]>();
  const byId = new Map(all.map((b) => [String(b._id), b]));
  const moves = new Map<string, { position: number; parent: string }>();
  const parentKey = (b: Pick<Placed, 'type' | 'moduleId'>) => (b.type === 'MODULE' ? 'course' : String(b.moduleId));
  const affected = new Set<string>();

  for (const [i, item] of input.blocks.entries()) {
    const doc = byId.get(String(ids[i])) as Placed;
    if (item.type !== undefined && item.type !== doc.type) throw badRequest(CONTENT_MSG.recordTypeChange, `blocks.${i}.type`);
    if (doc.type === 'MODULE' && item.moduleId) throw badRequest(CONTENT_MSG.reorderModuleInModule, `blocks.${i}.moduleId`);
    let parent = parentKey(doc);
    if (doc.type === 'LESSON' && item.moduleId) {
      const targetId = readId(item.moduleId, `blocks.${i}.moduleId`, CONTENT_MSG.moduleNotFound);
      const target = byId.get(String(targetId));
      if (!target || target.type !== 'MODULE') {
        const elsewhere = await models.blocks.findById(targetId).lean<BlockDoc>();
        if (!elsewhere || elsewhere.type !== 'MODULE') throw notFound(CONTENT_MSG.moduleNotFound);
        throw badRequest(CONTENT_MSG.moduleOfOtherCourse, `blocks.${i}.moduleId`);
      }
      parent = String(targetId);
    }
    affected.add(parentKey(doc)).add(parent);
    moves.set(String(doc._id), { position: item.position, parent });
  }

  const writes: Array<{ updateOne: { filter: { _id: Types.ObjectId }; update: { $set: Partial<BlockDoc> } } }> = [];
  for (const parent of affected) {
    const stay = all
      .filter((b) => !moves.has(String(b._id)) && parentKey(b) === parent)
      .sort((a, b) => a.position - b.position || String(a._id).localeCompare(String(b._id)));
    const arriving = all
      .filter((b) => moves.get(String(b._id))?.parent === parent)
      .sort((a, b) => (moves.get(String(a._id))?.position ?? 0) - (moves.get(String(b._id))?.position ?? 0));
    const order = [...stay];
    for (const b of arriving) order.splice(Math.min(moves.get(String(b._id))?.position ?? 0, order.length), 0, b);
    order.forEach((b, position) => {
      const moduleId = parent === 'course' ? null : new Types.ObjectId(parent);
      const moved = b.type === 'LESSON' && !(b.moduleId as Types.ObjectId).equals(moduleId as Types.ObjectId);
      if (b.position !== position || moved) {
        writes.push({ updateOne: { filter: { _id: b._id }, update: { $set: { position, ...(moved ? { moduleId } : {}) } } } });
      }
    });
  }
  await updateEach(models.blocks, writes);
  await touchCourse(models, courseId);
  recordAudit(deps, {
    code: 'blocks.reordered',
    data: { course: course.title, count: input.blocks.length },
    entityId: String(courseId),
  });
  return courseId;
}

type Positioned = Pick<BlockDoc, '_id' | 'type' | 'moduleId' | 'position'>;

/** Reading order: a module, then its lessons; lessons of a module not given are left out. */
export function inReadingOrder<M extends Positioned, L extends Positioned>(modules: M[], lessons: L[]): Array<M | L> {
  const byPosition = (a: Positioned, b: Positioned) => a.position - b.position || String(a._id).localeCompare(String(b._id));
  return [...modules].sort(byPosition).flatMap((m) => [m, ...lessons.filter((l) => l.moduleId?.equals(m._id)).sort(byPosition)]);
}

/** Every block record of a course the person may see, in reading order: a module, then its lessons. */
export async function courseBlocks(
  models: ContentModels,
  courseId: Types.ObjectId,
  visible: (b: BlockDoc) => boolean,
): Promise<BlockDoc[]> {
  const rows = (await models.blocks.find({ courseId }).lean<BlockDoc[]>()).filter(visible);
  return inReadingOrder(
    rows.filter((b) => b.type === 'MODULE'),
    rows.filter((b) => b.type === 'LESSON'),
  );
}
