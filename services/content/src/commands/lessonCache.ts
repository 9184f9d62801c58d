import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { HttpError, coalesce, notFound, versionTag, type Principal } from '@portal/service-kit';
import { CONTENT_MSG } from '@portal/contracts';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { canSeeBlock, canSeeCourse } from '../policies/content';
import { presentBlock } from '../presenters/block';
import { publishedViews, readsPublished, versionLesson } from '../versions/published';
import { loadBlock } from './blocks';
import { readBlockId } from './ids';

const gzipAsync = promisify(gzip);

/** One block as GET /blocks/{id} answers it, with what deciding who may read it needs. */
interface Kept {
  block: BlockDoc;
  /** Its module's status; null for a block outside any module; 'gone' when the module was deleted. */
  moduleStatus: BlockDoc['status'] | null | 'gone';
  json: Buffer;
  gzipped?: Buffer;
  etag: string;
}

/** What keying and deciding who may read a block reads of its course, fresh on every request. */
export type KeyCourse = Pick<CourseDoc, '_id' | 'status' | 'updatedAt' | 'createdBy' | 'coAuthors' | 'published'>;

export interface LessonAnswer {
  json: Buffer;
  etag: string;
  /** The same bytes gzipped, made once per kept block. */
  gzipped: () => Promise<Buffer>;
}

/**
 * GET /blocks/{id} is asked on every click in study mode, for the same lessons by everyone. The
 * answer is kept per course version, on the same argument as the course page (courseDetailCache):
 * the course's `updatedAt`, read from the store on every request, moves after every write to any of
 * its blocks (touchCourse), so a block read after the course document is at least as new as its
 * key, and a later write gives a later key, in every content process. Who may read it is decided per
 * request from the kept statuses and the fresh course status. A block never moves to another
 * course, so which course it belongs to is kept without a key.
 *
 * A request then costs one store read (the course's status and updatedAt) instead of three.
 */
export class LessonCache {
  private readonly courseOf = new LRUCache<string, string>({ max: 100_000 });
  private readonly kept: LRUCache<string, Kept>;
  private readonly reading = new Map<string, Promise<Kept>>();
  private readonly compressing = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly models: ContentModels,
    { maxBytes = 64 * 1024 * 1024, maxEntries = 5_000 }: { maxBytes?: number; maxEntries?: number } = {},
  ) {
    this.kept = new LRUCache<string, Kept>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (k) => k.json.length * 2 + (k.gzipped?.length ?? 0) + 1,
    });
  }

  /** The answer for a person who may read the block; 404 otherwise, exactly as the uncached read. */
  async answer(user: Principal, rawId: unknown): Promise<LessonAnswer> {
    const id = String(readBlockId(rawId));
    const course = await this.models.courses
      .findById(await this.courseIdOf(id))
      .select({ status: 1, updatedAt: 1, createdBy: 1, coAuthors: 1, published: 1 })
      .lean<KeyCourse>();
    if (!course || !canSeeCourse(user, course)) throw notFound(CONTENT_MSG.blockNotFound);
    const { key, kept } = await this.readable(user, course, id);
    return { json: kept.json, etag: kept.etag, gzipped: () => this.gzipped(key, kept) };
  }

  /**
   * The block as `answer` gives it, for a course the caller has just read with at least the fields
   * `answer` reads (so the same argument holds): null when the block is not that course's, or this
   * person may not read it. No store read when it is kept.
   */
  async readableIn(user: Principal, course: KeyCourse, rawId: unknown): Promise<BlockDoc | null> {
    const id = String(readBlockId(rawId));
    try {
      if ((await this.courseIdOf(id)) !== String(course._id) || !canSeeCourse(user, course)) return null;
      return (await this.readable(user, course, id)).kept.block;
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) return null;
      throw err;
    }
  }

  /** Which course a block is in: kept without a key, since a block never moves to another course. */
  private async courseIdOf(id: string): Promise<string> {
    let courseId = this.courseOf.get(id);
    if (!courseId) {
      courseId = await this.courseOfBlock(id);
      this.courseOf.set(id, courseId);
    }
    return courseId;
  }

  /** The kept block and its key, for a person who may read it in a course they may see; 404 otherwise. */
  private async readable(user: Principal, course: KeyCourse, id: string): Promise<{ key: string; kept: Kept }> {
    // A learner of a course with a published version reads the lesson as that version holds it.
    const published = readsPublished(user, course) ? course.published!.number : null;
    const key = `${id}|${new Date(course.updatedAt).getTime()}|${published ?? 'draft'}`;
    const kept =
      this.kept.get(key) ??
      (await coalesce(this.reading, key, () => (published ? this.readPublished(course, id, key) : this.read(id, key))));
    if (!canSeeBlock(user, course, kept.block)) throw notFound(CONTENT_MSG.blockNotFound);
    if (
      kept.moduleStatus === 'gone' ||
      (kept.moduleStatus && !canSeeBlock(user, course, { type: 'MODULE', status: kept.moduleStatus }))
    ) {
      throw notFound(CONTENT_MSG.blockNotFound);
    }
    return { key, kept };
  }

  /** The course of a block; a lesson deleted from the draft is found through a version that still holds it. */
  private async courseOfBlock(id: string): Promise<string> {
    try {
      return String((await loadBlock(this.models, id)).courseId);
    } catch (err) {
      const kept = await this.models.snapshots
        .findOne({ sourceId: id, kind: 'lesson' }, { courseId: 1 })
        .lean<{ courseId: unknown }>();
      if (!kept) throw err;
      return String(kept.courseId);
    }
  }

  private async readPublished(course: Pick<CourseDoc, '_id' | 'published'>, id: string, key: string): Promise<Kept> {
    const view = await publishedViews(this.models).current(course);
    const found = view ? await versionLesson(this.models, course._id, view, id) : null;
    if (!found) throw notFound(CONTENT_MSG.blockNotFound);
    const kept: Kept = {
      block: found.block,
      moduleStatus: found.moduleStatus,
      json: Buffer.from(JSON.stringify(presentBlock(found.block))),
      etag: versionTag(found.block.version ?? 0),
    };
    this.kept.set(key, kept);
    return kept;
  }

  private async read(id: string, key: string): Promise<Kept> {
    const block = await loadBlock(this.models, id);
    const mod = block.moduleId
      ? await this.models.blocks.findById(block.moduleId).select({ status: 1 }).lean<Pick<BlockDoc, 'status'>>()
      : null;
    const kept: Kept = {
      block,
      moduleStatus: block.moduleId ? (mod?.status ?? 'gone') : null,
      json: Buffer.from(JSON.stringify(presentBlock(block))),
      etag: versionTag(block.version ?? 0),
    };
    this.kept.set(key, kept);
    return kept;
  }

  private async gzipped(key: string, kept: Kept): Promise<Buffer> {
    if (kept.gzipped) return kept.gzipped;
    return coalesce(this.compressing, key, async () => {
      const compressed = await gzipAsync(kept.json);
      kept.gzipped = compressed;
      // Set again so that the bound counts the compressed bytes too (only if still kept).
      if (this.kept.peek(key) === kept) this.kept.set(key, kept);
      return compressed;
    });
  }
}

/** One lesson cache per set of models (a process holds one): study mode and attempt starts share what is kept. */
const cachesByModels = new WeakMap<ContentModels, LessonCache>();
export const lessonCacheOf = (models: ContentModels): LessonCache => {
  let cache = cachesByModels.get(models);
  if (!cache) cachesByModels.set(models, (cache = new LessonCache(models)));
  return cache;
};
