import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { CourseSummary } from '@portal/contracts';
import { coalesce, onePer, type Principal } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import { readsAsAuthor, visibleBlocksFilter, type CourseAccess } from '../policies/content';
import { courseTree } from '../presenters/block';
import { presentCourse } from '../presenters/course';
import { publishedViews, readsPublished, versionRecords } from '../versions/published';
import { courseOutline } from './outline';

/**
 * GET /courses/{id} of a large course is megabytes of JSON built from a thousand block records; the
 * structure is the same for every reader of one visibility class until the course changes. So the
 * serialised answer is kept, split around the two per-person fields (isFavorite, isStarted), which
 * are spliced in per request.
 *
 * Why it is correct: the key holds the course's `updatedAt`, read from the store on every request,
 * and every write that changes what the page shows moves it afterwards (touchCourse, updateCourse).
 * A page built from blocks read after the course document is at least as new as its key, and a
 * later write gives a later key; so several content processes each with their own cache stay right.
 */
export interface CourseDetailCacheOptions {
  /** Bytes of serialised pages kept at most; the least recently read go first. */
  maxBytes: number;
  /** Pages kept at most, whatever their size. */
  maxEntries: number;
}

interface Page {
  /** `{"id":…,"updatedAt":"…"` : everything before isFavorite, without the closing brace. */
  head: Buffer;
  /** `"modulesCount":…,"modules":[…]}` : everything after isStarted. */
  tail: Buffer;
  /** The whole answer gzipped, by pair of flags ("00" … "11"), made the first time one is asked for. */
  gzipped: Map<string, Buffer>;
}

const gzipAsync = promisify(gzip);

const sizeOf = (page: Page) =>
  page.head.length + page.tail.length + [...page.gzipped.values()].reduce((sum, b) => sum + b.length, 0);
const flagsKey = (flags: PersonalFlags) => `${Number(flags.isFavorite)}${Number(flags.isStarted)}`;

export type Visibility = 'author' | 'reader';

/** What differs between two readers of one visibility class. */
export interface PersonalFlags {
  isFavorite: boolean;
  isStarted: boolean;
}

export const visibilityOf = (user: Principal, course: CourseAccess): Visibility =>
  readsAsAuthor(user, course) ? 'author' : 'reader';

/** Splits the presented course around the per-person flags; the output keeps the presenter's key order. */
function serialise(course: CourseSummary): Page {
  const entries = Object.entries(course);
  const at = entries.findIndex(([key]) => key === 'isFavorite');
  if (at < 1 || entries[at + 1]?.[0] !== 'isStarted' || at + 2 >= entries.length) {
    // The presenter's field order is what makes the splice exact; fail loudly if it ever changes.
    throw new Error('presentCourse: isFavorite and isStarted must be adjacent, between other fields');
  }
  const head = JSON.stringify(Object.fromEntries(entries.slice(0, at)));
  const tail = JSON.stringify(Object.fromEntries(entries.slice(at + 2)));
  return { head: Buffer.from(head.slice(0, -1)), tail: Buffer.from(tail.slice(1)), gzipped: new Map() };
}

/** Builds the page one visibility class sees, with both flags false (they are spliced in per request). */
type PageBuilder = (course: CourseDoc, user: Principal) => Promise<CourseSummary>;

/**
 * The serialised pages of one representation of a course (the whole course, or its outline), with
 * the bounds and the correctness argument above.
 */
export class CoursePageCache {
  private readonly pages = new Map<string, Page>();
  /** Pages being built: concurrent first readers of a course share one store query. */
  private readonly building = new Map<string, Promise<Page>>();
  /** Compressions under way: concurrent askers of one page and pair of flags share one. */
  private readonly compressing = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    private readonly buildPage: PageBuilder,
    private readonly options: CourseDetailCacheOptions,
    /** Told apart in the ETag, so one representation's tag never validates another's bytes. */
    private readonly tag = '',
  ) {}

  static keyOf(course: Pick<CourseDoc, '_id' | 'updatedAt'>, visibility: Visibility): string {
    return `${String(course._id)}|${new Date(course.updatedAt).getTime()}|${visibility}`;
  }

  /**
   * A validator of the whole answer: the page's key plus the person's flags determine every byte, so
   * a client holding this tag may be answered 304 without building or sending anything.
   */
  etagOf(
    course: Pick<CourseDoc, '_id' | 'updatedAt' | 'createdBy' | 'coAuthors'>,
    user: Principal,
    flags: PersonalFlags,
  ): string {
    const key = CoursePageCache.keyOf(course, visibilityOf(user, course)).replaceAll('|', '-');
    return `W/"${this.tag}${key}-${Number(flags.isFavorite)}${Number(flags.isStarted)}"`;
  }

  /** The same bytes `JSON.stringify(presentCourseDetail(...))` gives, for a course the person may see. */
  async answer(user: Principal, course: CourseDoc, flags: PersonalFlags): Promise<Buffer> {
    return spliced(await this.page(course, user), flags);
  }

  /**
   * The same answer gzipped. A large page compressed on every request was the largest cost of the
   * outline under load (the gateway's gzip of 206 KB: 6 ms of CPU per request, bench); a kept page
   * is compressed once per pair of flags, and the gateway passes an encoded answer through as is.
   */
  async answerGzipped(user: Principal, course: CourseDoc, flags: PersonalFlags): Promise<Buffer> {
    const key = CoursePageCache.keyOf(course, visibilityOf(user, course));
    const page = await this.page(course, user);
    const variant = flagsKey(flags);
    const kept = page.gzipped.get(variant);
    if (kept) return kept;
    return coalesce(this.compressing, `${key}|${variant}`, async () => {
      const compressed = await gzipAsync(spliced(page, flags));
      // Counted only on a page still kept (it may have been dropped while this ran).
      if (this.pages.get(key) === page && !page.gzipped.has(variant)) {
        page.gzipped.set(variant, compressed);
        this.bytes += compressed.length;
        this.trim();
      }
      return compressed;
    });
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.pages.size, bytes: this.bytes };
  }

  private async page(course: CourseDoc, user: Principal): Promise<Page> {
    const key = CoursePageCache.keyOf(course, visibilityOf(user, course));
    const hit = this.pages.get(key);
    if (hit) {
      // Map order is the recency order: a read moves the page to the end.
      this.pages.delete(key);
      this.pages.set(key, hit);
      return hit;
    }
    return coalesce(this.building, key, async () => {
      const page = await this.build(course, user);
      this.keep(key, page);
      return page;
    });
  }

  /** Everyone of one visibility class sees the same blocks, so any of them can build the page. */
  private async build(course: CourseDoc, user: Principal): Promise<Page> {
    return serialise(await this.buildPage(course, user));
  }

  private keep(key: string, page: Page): void {
    const size = sizeOf(page);
    if (size > this.options.maxBytes) return;
    // A page of the same course under an older key can never be asked for again: drop it. A slow
    // reader's page under an older key than one already kept is not kept.
    const [id, version, visibility] = key.split('|');
    for (const [other, otherPage] of this.pages) {
      const [otherId, otherVersion, otherVisibility] = other.split('|');
      if (otherId !== id || otherVisibility !== visibility) continue;
      if (Number(otherVersion) > Number(version)) return;
      this.drop(other, otherPage);
    }
    this.pages.set(key, page);
    this.bytes += size;
    this.trim();
  }

  /** Drops the least recently read pages until the bounds hold. */
  private trim(): void {
    for (const [oldest, oldestPage] of this.pages) {
      if (this.bytes <= this.options.maxBytes && this.pages.size <= this.options.maxEntries) break;
      this.drop(oldest, oldestPage);
    }
  }

  private drop(key: string, page: Page): void {
    this.pages.delete(key);
    this.bytes -= sizeOf(page);
  }
}

/** The answer for one person: the page with their flags spliced in. */
function spliced(page: Page, flags: PersonalFlags): Buffer {
  const middle = `,"isFavorite":${flags.isFavorite},"isStarted":${flags.isStarted},`;
  return Buffer.concat([page.head, Buffer.from(middle), page.tail]);
}

const NO_FLAGS: PersonalFlags = { isFavorite: false, isStarted: false };

/** GET /courses/{id}: course → modules → lessons → blocks. Large pages: few are kept. */
export class CourseDetailCache extends CoursePageCache {
  constructor(models: ContentModels, options: CourseDetailCacheOptions = { maxBytes: 64 * 1024 * 1024, maxEntries: 50 }) {
    super(async (course, user) => {
      const view = readsPublished(user, course) ? await publishedViews(models).current(course) : null;
      const blocks = view
        ? await versionRecords(models, course._id, view)
        : await models.blocks.find({ courseId: course._id, ...visibleBlocksFilter(user, course) }).lean<BlockDoc[]>();
      return presentCourse(course, NO_FLAGS, courseTree(blocks));
    }, options);
  }
}

/** GET /courses/{id}/outline: the structure without content, a few hundred KB at most: many are kept. */
export class CourseOutlineCache extends CoursePageCache {
  constructor(models: ContentModels, options: CourseDetailCacheOptions = { maxBytes: 32 * 1024 * 1024, maxEntries: 500 }) {
    super((course, user) => courseOutline(models, user, course, NO_FLAGS), options, 'outline-');
  }
}

/** One outline cache per set of models (a process holds one): the public route and the internal one share it. */
export const courseOutlineCacheOf = onePer((models: ContentModels): CourseOutlineCache => new CourseOutlineCache(models));
