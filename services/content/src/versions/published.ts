import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { coalesce, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { CourseVersionDoc } from '../models/courseVersion';
import { learnerSeesBlock, readsAsAuthor, type CourseAccess } from '../policies/content';
import type { OutlineLessonDoc } from '../presenters/block';
import {
  lessonsOfState,
  readSnapshots,
  readVersionState,
  type CourseState,
  type LessonBody,
  type LessonEntry,
  type ModuleState,
} from './state';

/**
 * What learners read of a course with a published version (docs/decisions/093). A version never
 * changes once written, so its tree is kept per process by (course, number) without any check: two
 * replicas keep the same bytes. Which version is current is read from the course document, which
 * every reader already reads.
 */
export interface PublishedView {
  version: CourseVersionDoc;
  state: CourseState;
  lessons: Map<string, { entry: LessonEntry; module: ModuleState; position: number }>;
  /** Quiz id → the lessons holding it, in reading order. */
  quizHolders: Map<string, string[]>;
}

type Pointer = Pick<CourseDoc, '_id' | 'published'>;

/** Whether this person reads the published version rather than the draft. */
export const readsPublished = (user: Principal, course: CourseAccess & Pick<CourseDoc, 'published'>): boolean =>
  !!course.published && !readsAsAuthor(user, course);

export class PublishedViews {
  private readonly kept = new LRUCache<string, PublishedView>({ max: 300 });
  private readonly reading = new Map<string, Promise<PublishedView | null>>();

  constructor(private readonly models: ContentModels) {}

  /** The current version's view; null for a course without one. */
  async current(course: Pointer): Promise<PublishedView | null> {
    if (!course.published) return null;
    return this.of(course._id, course.published.number);
  }

  async of(courseId: Types.ObjectId | string, number: number): Promise<PublishedView | null> {
    const key = `${String(courseId)}:${number}`;
    const hit = this.kept.get(key);
    if (hit) return hit;
    return coalesce(this.reading, key, async () => {
      const version = await this.models.versions
        .findOne({ courseId: new Types.ObjectId(String(courseId)), number })
        .lean<CourseVersionDoc>();
      if (!version) return null;
      const view = viewOf(version, await readVersionState(this.models, version));
      this.kept.set(key, view);
      return view;
    });
  }
}

/** One keeper of version trees per set of models (a process holds one). */
const viewsByModels = new WeakMap<ContentModels, PublishedViews>();
export const publishedViews = (models: ContentModels): PublishedViews => {
  let views = viewsByModels.get(models);
  if (!views) {
    views = new PublishedViews(models);
    viewsByModels.set(models, views);
  }
  return views;
};

export function viewOf(version: CourseVersionDoc, state: CourseState): PublishedView {
  const lessons = lessonsOfState(state);
  const quizHolders = new Map<string, string[]>();
  for (const [id, { entry }] of lessons)
    for (const quizId of entry.quizIds) quizHolders.set(quizId, [...(quizHolders.get(quizId) ?? []), id]);
  return { version, state, lessons, quizHolders };
}

/* ------------------------------------------------------------------ records as the presenters take them */

export const moduleRecord = (courseId: Types.ObjectId, view: PublishedView, m: ModuleState, position: number): BlockDoc => ({
  _id: new Types.ObjectId(m.id),
  type: 'MODULE',
  courseId,
  moduleId: null,
  title: m.body.title,
  description: '',
  content: m.body.content,
  position,
  status: m.body.status,
  ...(m.body.generated ? { generated: true } : {}),
  version: view.version.number,
  createdAt: new Date(m.body.createdAt),
  updatedAt: view.version.publishedAt,
});

export const lessonOutlineRecord = (
  courseId: Types.ObjectId,
  view: PublishedView,
  module: ModuleState,
  entry: LessonEntry,
  position: number,
): OutlineLessonDoc => ({
  _id: new Types.ObjectId(entry.id),
  type: 'LESSON',
  courseId,
  moduleId: new Types.ObjectId(module.id),
  title: entry.title,
  position,
  status: entry.status,
  blocksCount: entry.blocksCount,
  hasQuiz: entry.hasQuiz,
  hasScorm: entry.hasScorm,
  ...(entry.generated ? { generated: true } : {}),
  version: view.version.number,
  createdAt: new Date(entry.createdAt),
  updatedAt: view.version.publishedAt,
  ...(entry.retakeSince ? { retakeSince: new Date(entry.retakeSince) } : {}),
});

export const lessonRecord = (
  courseId: Types.ObjectId,
  module: ModuleState,
  entry: LessonEntry,
  position: number,
  body: LessonBody,
): BlockDoc => ({
  _id: new Types.ObjectId(entry.id),
  type: 'LESSON',
  courseId,
  moduleId: new Types.ObjectId(module.id),
  title: body.title,
  description: body.description,
  content: body.content,
  position,
  status: body.status,
  blocksCount: body.blocksCount,
  hasQuiz: body.hasQuiz,
  hasScorm: body.hasScorm,
  ...(body.generated ? { generated: true } : {}),
  version: body.version,
  createdAt: new Date(body.createdAt),
  updatedAt: new Date(body.updatedAt),
});

/** A learner's modules and lessons of the version (without content): no store read. */
export function versionStructure(
  courseId: Types.ObjectId,
  view: PublishedView,
  asLearner = true,
): { modules: BlockDoc[]; lessons: OutlineLessonDoc[] } {
  const modules: BlockDoc[] = [];
  const lessons: OutlineLessonDoc[] = [];
  view.state.modules.forEach((m, position) => {
    const record = moduleRecord(courseId, view, m, position);
    if (asLearner && !learnerSeesBlock(record)) return;
    modules.push(record);
    m.body.lessons.forEach((entry, at) => {
      const lesson = lessonOutlineRecord(courseId, view, m, entry, at);
      if (!asLearner || learnerSeesBlock(lesson)) lessons.push(lesson);
    });
  });
  return { modules, lessons };
}

/** The version's modules and lessons with their content, as a learner (or, `asLearner` false, an author) sees them. */
export async function versionRecords(
  models: ContentModels,
  courseId: Types.ObjectId,
  view: PublishedView,
  asLearner = true,
): Promise<BlockDoc[]> {
  const { modules, lessons } = versionStructure(courseId, view, asLearner);
  const bodies = await readSnapshots<LessonBody>(
    models,
    { courseId, kind: 'lesson' },
    lessons.map((l) => view.lessons.get(String(l._id))!.entry.snap),
  );
  const full = lessons.flatMap((l) => {
    const at = view.lessons.get(String(l._id))!;
    const body = bodies.get(at.entry.snap);
    return body ? [lessonRecord(courseId, at.module, at.entry, at.position, body)] : [];
  });
  return [...modules, ...full];
}

/** One lesson of the version with its content (one read), and its module's status; null when the version has no such lesson. */
export async function versionLesson(
  models: ContentModels,
  courseId: Types.ObjectId,
  view: PublishedView,
  lessonId: string,
): Promise<{ block: BlockDoc; moduleStatus: BlockDoc['status'] } | null> {
  const at = view.lessons.get(lessonId);
  if (!at) return null;
  const body = (await readSnapshots<LessonBody>(models, { courseId }, [at.entry.snap])).get(at.entry.snap);
  if (!body) return null;
  return { block: lessonRecord(courseId, at.module, at.entry, at.position, body), moduleStatus: at.module.body.status };
}

/** Whether a learner sees the lesson in the version: published, in a module that is not hidden. */
export function learnerSeesVersionLesson(view: PublishedView, lessonId: string): boolean {
  const at = view.lessons.get(lessonId);
  return !!at && at.entry.status === 'published' && at.module.body.status !== 'hidden';
}
