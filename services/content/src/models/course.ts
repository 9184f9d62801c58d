import { Schema, type Types } from 'mongoose';
import { COURSE_DEFAULTS, COURSE_STATUSES, type CourseFields } from '@portal/contracts';
import { bumpOnWrite, storeModel, versionPlugin } from '@portal/service-kit';

export interface CourseDoc extends CourseFields {
  _id: Types.ObjectId;
  /** Always equal to status === 'published'; kept because the spec's payloads carry it. */
  isPublished: boolean;
  /** When it last became published (the dashboard's "active courses" change). */
  publishedAt: Date | null;
  /** The owner (docs/decisions/018); null on courses from before owners were kept: only an ADMIN changes those. */
  createdBy: string | null;
  /** User ids of co-authors: CURATORs who may change the course as its owner does. */
  coAuthors?: string[];
  /** Set when a curator deleted it while learners had attempts or progress in it (status is then hidden). */
  archivedAt?: Date | null;
  /** Set (once) by the progress service when a learner first records progress or starts an attempt in it. */
  learnerActivity?: boolean;
  /**
   * Modules and lessons, kept by every write that changes the structure (touchCourse), so a course
   * list never reads lessons. `visible*` count what a learner sees (nothing hidden, and no lesson of
   * a hidden module). Missing on courses written before counts existed: filled on first read.
   */
  counts?: CourseCounts;
  /**
   * Moves with each write of the course's own fields (optimistic concurrency, versionPlugin); not
   * with its modules' and lessons' writes, which have versions of their own.
   */
  version?: number;
  /**
   * The version learners see (docs/decisions/093): its number and when it became the one, which
   * keys the learners' cached pages. Missing until the course has a published version: learners then
   * read the course as authors write it.
   */
  published?: PublishedPointer | null;
  /** How many published versions pruning keeps (pinned ones always stay). */
  versionRetention?: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PublishedPointer {
  number: number;
  at: Date;
  counts: CourseCounts;
}

export interface CourseCounts {
  modules: number;
  lessons: number;
  visibleModules: number;
  visibleLessons: number;
}

const courseSchema = new Schema<CourseDoc>(
  {
    title: { type: String, required: true, trim: true, maxlength: 200 },
    description: { type: String, default: '' },
    price: { type: Number, default: COURSE_DEFAULTS.price, min: 0 },
    duration: { type: Number, default: COURSE_DEFAULTS.duration, min: 0 },
    level: { type: String, default: COURSE_DEFAULTS.level },
    isPublished: { type: Boolean, default: false },
    status: { type: String, enum: COURSE_STATUSES, default: 'draft', index: true },
    publishedAt: { type: Date, default: null },
    createdBy: { type: String, default: null },
    coAuthors: { type: [String], default: [] },
    archivedAt: { type: Date, default: null },
    learnerActivity: { type: Boolean, default: false },
    published: {
      type: new Schema<PublishedPointer>(
        {
          number: { type: Number, required: true },
          at: { type: Date, required: true },
          counts: { type: Schema.Types.Mixed, default: undefined },
        },
        { _id: false },
      ),
      default: null,
    },
    versionRetention: { type: Number, default: null },
    counts: {
      type: new Schema<CourseCounts>(
        {
          modules: { type: Number, default: 0 },
          lessons: { type: Number, default: 0 },
          visibleModules: { type: Number, default: 0 },
          visibleLessons: { type: Number, default: 0 },
        },
        { _id: false },
      ),
      default: undefined,
    },
  },
  { timestamps: true },
);
courseSchema.plugin(versionPlugin);
courseSchema.index({ updatedAt: -1 });
// The courses a curator may change (owner or co-author): the review queue and item analysis ask.
courseSchema.index({ createdBy: 1 });
courseSchema.index({ coAuthors: 1 });
// The list's order (updatedAt, then _id) for authors, and for learners behind their status filter:
// a page is an index walk, never a sort of every course.
courseSchema.index({ updatedAt: -1, _id: -1 });
courseSchema.index({ status: 1, updatedAt: -1, _id: -1 });

/** The catalogue's version (where it has always been kept, so a store upgraded keeps its stamps valid). */
export const CATALOGUE_VERSION = { name: 'courses', collection: 'catalogue_versions' } as const;

// Every write to a course moves the catalogue's version after it (src/commands/catalogueCache.ts).
bumpOnWrite(courseSchema, CATALOGUE_VERSION.name, CATALOGUE_VERSION.collection);

/**
 * The version of each course document kept by a course's pages (commands/keptCourses.ts): a write
 * naming one course moves its own, any other write every course's.
 */
export const COURSE_DOCUMENT_VERSION = { name: 'course_documents', keyedBy: '_id' } as const;
bumpOnWrite(courseSchema, COURSE_DOCUMENT_VERSION.name, undefined, { keyedBy: COURSE_DOCUMENT_VERSION.keyedBy });

export const courseModel = storeModel<CourseDoc>('Course', courseSchema, 'courses');
