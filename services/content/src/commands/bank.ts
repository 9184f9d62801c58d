import { Types } from 'mongoose';
import type { z } from 'zod';
import {
  BANK_MSG,
  CONTENT_MSG,
  MAX_BANK_QUESTIONS,
  formatMessage,
  pageOffset,
  type BankPage,
  type Question,
  type QuizDraw,
  type bankListQuerySchema,
  type bankQuestionInputSchema,
} from '@portal/contracts';
import { seededDraw } from '@portal/quiz-engine';
import { badRequest, notFound, op, writeVersioned } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BankQuestionDoc } from '../models/bankQuestion';
import { presentBankQuestion } from '../presenters/quiz';
import { recordAudit, type CommandDeps } from './deps';
import { readCourseId, readId } from './ids';
import { assertCourseEditable } from './ownership';

type Input = z.output<typeof bankQuestionInputSchema>;
type ListQuery = z.output<typeof bankListQuerySchema>;

const readBankId = (raw: unknown) => readId(raw, 'questionId', BANK_MSG.notFound);
/** The id a bank question has inside a quiz attempt: its own, so a draw never collides with a fixed question. */
const questionIdOf = (id: Types.ObjectId | string) => `bank-${String(id)}`;

async function assertCourseExists(models: ContentModels, rawCourseId: unknown): Promise<Types.ObjectId> {
  const courseId = readCourseId(rawCourseId);
  if (!(await models.courses.exists({ _id: courseId }))) throw notFound(CONTENT_MSG.courseNotFound);
  return courseId;
}

/** A page of the bank, newest first, optionally one tag's; and every tag with its count. */
export async function listBank(models: ContentModels, rawCourseId: unknown, query: ListQuery): Promise<BankPage> {
  const courseId = String(await assertCourseExists(models, rawCourseId));
  const filter: Record<string, unknown> = { courseId };
  if (query.tag) filter.tags = query.tag;
  const [rows, total, tags] = await Promise.all([
    models.bank.find(filter).sort({ _id: -1 }).skip(pageOffset(query)).limit(query.limit).lean<BankQuestionDoc[]>(),
    models.bank.countDocuments(filter),
    // The bank is bounded (MAX_BANK_QUESTIONS), so its tags are read in one pass over its tags only.
    models.bank.find({ courseId }, { tags: 1 }).limit(MAX_BANK_QUESTIONS).lean<Array<Pick<BankQuestionDoc, 'tags'>>>(),
  ]);
  const counts = new Map<string, number>();
  for (const row of tags) for (const tag of row.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return {
    data: rows.map(presentBankQuestion),
    total,
    page: query.page,
    limit: query.limit,
    tags: [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => a.tag.localeCompare(b.tag, 'ru')),
  };
}

export async function loadBankQuestion(models: ContentModels, rawCourseId: unknown, rawId: unknown): Promise<BankQuestionDoc> {
  const courseId = String(readCourseId(rawCourseId));
  const doc = await models.bank.findOne({ _id: readBankId(rawId), courseId }).lean<BankQuestionDoc>();
  if (!doc) throw notFound(BANK_MSG.notFound);
  return doc;
}

export async function createBankQuestion(deps: CommandDeps, rawCourseId: unknown, input: Input): Promise<BankQuestionDoc> {
  const { models } = deps;
  const courseId = await assertCourseExists(models, rawCourseId);
  const course = await assertCourseEditable(models, deps.actor, courseId);
  if ((await models.bank.countDocuments({ courseId: String(courseId) })) >= MAX_BANK_QUESTIONS)
    throw badRequest(formatMessage(BANK_MSG.full, { max: MAX_BANK_QUESTIONS }));
  const _id = new Types.ObjectId();
  await models.bank.create({
    _id,
    courseId: String(courseId),
    tags: input.tags,
    question: { ...input.question, id: questionIdOf(_id), order: 0 },
    createdBy: deps.actor.id,
  });
  recordAudit(deps, {
    code: 'bankQuestion.created',
    data: { course: course.title, courseId: String(courseId), tags: input.tags },
    entityId: String(_id),
  });
  return (await models.bank.findById(_id).lean<BankQuestionDoc>())!;
}

/** `expected`: the version the author's copy was based on (412 when someone saved since). */
export async function updateBankQuestion(
  deps: CommandDeps,
  rawCourseId: unknown,
  rawId: unknown,
  input: Input,
  expected?: number[],
): Promise<BankQuestionDoc> {
  const { models } = deps;
  const current = await loadBankQuestion(models, rawCourseId, rawId);
  const course = await assertCourseEditable(models, deps.actor, current.courseId);
  const changes = { tags: input.tags, question: { ...input.question, id: questionIdOf(current._id), order: 0 } };
  if (!(await writeVersioned(models.bank, current, expected, { $set: changes }))) throw notFound(BANK_MSG.notFound);
  recordAudit(deps, {
    code: 'bankQuestion.updated',
    data: { course: course.title, courseId: current.courseId },
    entityId: String(current._id),
  });
  return (await models.bank.findById(current._id).lean<BankQuestionDoc>())!;
}

/** Attempts keep the questions they drew: deleting one from the bank changes no attempt. */
export async function deleteBankQuestion(deps: CommandDeps, rawCourseId: unknown, rawId: unknown): Promise<void> {
  const current = await loadBankQuestion(deps.models, rawCourseId, rawId);
  const course = await assertCourseEditable(deps.models, deps.actor, current.courseId);
  await deps.models.bank.deleteOne({ _id: current._id });
  recordAudit(deps, {
    code: 'bankQuestion.deleted',
    data: { course: course.title, courseId: current.courseId },
    entityId: String(current._id),
  });
}

/**
 * One attempt's draw: for each tag, `count` of the course's bank questions with it, chosen from the
 * attempt's seed (the same seed draws the same questions); a question two tags share is drawn once.
 * Per tag one indexed read of ids (bounded by the bank's size), then one read of the chosen.
 */
export async function drawFromBank(
  models: ContentModels,
  courseId: string | null,
  draws: QuizDraw[],
  seed: string,
): Promise<Question[]> {
  if (!courseId || !draws.length) return [];
  const chosen: string[] = [];
  for (const draw of draws) {
    const pool = await models.bank
      .find({ courseId, tags: draw.tag, _id: op({ $nin: chosen.map((id) => new Types.ObjectId(id)) }) }, { _id: 1 })
      .sort({ _id: 1 })
      .limit(MAX_BANK_QUESTIONS)
      .lean<Array<{ _id: Types.ObjectId }>>();
    chosen.push(
      ...seededDraw(
        seed,
        draw.tag,
        pool.map((p) => String(p._id)),
        draw.count,
      ),
    );
  }
  if (!chosen.length) return [];
  const docs = await models.bank.find({ _id: op({ $in: chosen.map((id) => new Types.ObjectId(id)) }) }).lean<BankQuestionDoc[]>();
  const byId = new Map(docs.map((d) => [String(d._id), d]));
  return chosen.flatMap((id) => {
    const doc = byId.get(id);
    return doc ? [presentBankQuestion(doc).question] : [];
  });
}
