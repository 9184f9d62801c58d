import type { Types } from 'mongoose';
import {
  CONTENT_MSG,
  VERSION_MSG,
  type CourseVersionSummary,
  type DraftState,
  type Page,
  type VersionDiff,
  type VersionOutline,
} from '@portal/contracts';
import { forbidden, notFound, type Principal } from '@portal/service-kit';
import { loadVisibleCourse } from '../commands/courses';
import { inTouchTurn, nextUpdatedAt } from '../commands/touch';
import type { ContentModels } from '../models';
import type { CourseCounts, CourseDoc } from '../models/course';
import type { CourseVersionDoc } from '../models/courseVersion';
import { learnerSeesBlock, readsAsAuthor } from '../policies/content';
import { presentBlock } from '../presenters/block';
import { presentVersion } from '../presenters/version';
import { diffStates, hasChanges } from './diff';
import { publishedViews, versionLesson, type PublishedView } from './published';
import { buildDraft, type DraftBuild } from './draft';
import type { CourseState } from './state';

/**
 * What a course's versions read: its current pointer (put back when it lags), the draft against the
 * published version, the list, a version's outline and lessons, and two versions compared. The
 * writes (publish, discard, restore, prune) are in `commands.ts`.
 */

/** Counts of a state as the course card keeps them. */
export function countsOf(state: CourseState): CourseCounts {
  const visible = state.modules.filter((m) => learnerSeesBlock({ type: 'MODULE', status: m.body.status }));
  return {
    modules: state.modules.length,
    lessons: state.modules.reduce((n, m) => n + m.body.lessons.length, 0),
    visibleModules: visible.length,
    visibleLessons: visible.reduce(
      (n, m) => n + m.body.lessons.filter((l) => learnerSeesBlock({ type: 'LESSON', status: l.status })).length,
      0,
    ),
  };
}

/** The draft's snapshot bodies not stored yet, by the id they would have. */
export const bodiesBySnap = (build: DraftBuild): Map<string, unknown> => new Map(build.fresh.map((s) => [s._id, s.body]));

export async function latestVersion(models: ContentModels, courseId: Types.ObjectId): Promise<CourseVersionDoc | null> {
  return models.versions.findOne({ courseId }).sort({ number: -1 }).lean<CourseVersionDoc>();
}

/**
 * The course's pointer to its newest version, put back when it lags: a write of the course document
 * that overlapped a publish (FerretDB writes the whole document back) may have restored the pointer
 * it read. The newest version is the truth: it was written first, under its unique number.
 */
export async function withCurrentPointer(models: ContentModels, course: CourseDoc): Promise<CourseDoc> {
  const latest = await latestVersion(models, course._id);
  if (!latest || (course.published?.number ?? 0) >= latest.number) return course;
  const view = await publishedViews(models).of(course._id, latest.number);
  if (!view) return course;
  const published = { number: latest.number, at: new Date(latest.publishedAt), counts: countsOf(view.state) };
  const updatedAt = await inTouchTurn(models, course._id, async () => {
    const now = await models.courses.findById(course._id).select({ updatedAt: 1 }).lean<Pick<CourseDoc, 'updatedAt'>>();
    const next = nextUpdatedAt(now?.updatedAt ?? course.updatedAt);
    await models.courses.updateOne({ _id: course._id }, { $set: { published, updatedAt: next } }, { timestamps: false });
    return next;
  });
  return { ...course, published, updatedAt };
}

export async function versionOf(models: ContentModels, courseId: Types.ObjectId, number: number): Promise<PublishedView> {
  const view = await publishedViews(models).of(courseId, number);
  if (!view) throw notFound(VERSION_MSG.notFound);
  return view;
}

/** Versions are the authors' (ADMIN, owner, co-authors): others may not see what the draft or an old version held. */
export async function loadAuthoredCourse(models: ContentModels, user: Principal, rawId: unknown): Promise<CourseDoc> {
  const course = await loadVisibleCourse(models, user, rawId, 'id');
  if (!readsAsAuthor(user, course)) throw forbidden(CONTENT_MSG.courseAuthorsOnly);
  return course;
}

export async function draftState(models: ContentModels, stored: CourseDoc): Promise<DraftState> {
  const course = await withCurrentPointer(models, stored);
  const base = await publishedViews(models).current(course);
  // Without a version there is nothing to compare with: the draft is what learners read.
  const build = base ? await buildDraft(models, course._id, { state: base.state, publishedAt: base.version.publishedAt }) : null;
  const diff = base && build ? await diffStates(models, course._id, base.state, build.state, bodiesBySnap(build)) : emptyDiff();
  return {
    publishedVersion: course.published?.number ?? null,
    versioned: !!course.published,
    hasChanges: !!base && hasChanges(diff),
    diff,
  };
}

const emptyDiff = (): VersionDiff => ({
  modules: [],
  lessons: [],
  quizzes: [],
  bank: { added: 0, removed: 0, changed: 0 },
  blocks: {},
  counts: { added: 0, removed: 0, changed: 0 },
});

/** The versions, newest first, a page at a time (an index walk on courseId and number). */
export async function listVersions(
  models: ContentModels,
  course: CourseDoc,
  { page, limit }: { page: number; limit: number },
): Promise<Page<CourseVersionSummary>> {
  const [items, total] = await Promise.all([
    models.versions
      .find({ courseId: course._id }, { modules: 0, quizzes: 0 })
      .sort({ number: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<CourseVersionDoc[]>(),
    models.versions.countDocuments({ courseId: course._id }),
  ]);
  return { data: items.map((v) => presentVersion(v, course)), total, page, limit };
}

/** A version's outline as a learner would have seen it. */
export async function versionOutline(models: ContentModels, course: CourseDoc, number: number): Promise<VersionOutline> {
  const view = await versionOf(models, course._id, number);
  return {
    courseId: String(course._id),
    number,
    summary: view.version.summary,
    publishedAt: new Date(view.version.publishedAt).toISOString(),
    modules: view.state.modules
      .filter((m) => m.body.status !== 'hidden')
      .map((m) => ({
        id: m.id,
        title: m.body.title,
        description: m.body.content,
        lessons: m.body.lessons
          .filter((l) => l.status === 'published')
          .map((l) => ({ id: l.id, title: l.title, blocksCount: l.blocksCount, hasQuiz: l.hasQuiz })),
      })),
  };
}

export async function versionLessonRecord(models: ContentModels, course: CourseDoc, number: number, lessonId: string) {
  const view = await versionOf(models, course._id, number);
  const found = await versionLesson(models, course._id, view, lessonId);
  if (!found) throw notFound(VERSION_MSG.lessonNotInVersion);
  return presentBlock(found.block);
}

export async function compareVersions(models: ContentModels, course: CourseDoc, from: number, to: number): Promise<VersionDiff> {
  const [a, b] = await Promise.all([versionOf(models, course._id, from), versionOf(models, course._id, to)]);
  return diffStates(models, course._id, a.state, b.state);
}
