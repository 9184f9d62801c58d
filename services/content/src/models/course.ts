import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { COURSE_DEFAULTS, COURSE_STATUSES, type CourseStatus } from '@portal/contracts';

export interface CourseDoc {
  _id: Types.ObjectId;
  title: string;
  description: string;
  price: number;
  duration: number;
  level: string;
  /** Always equal to status === 'published'; kept because the spec's payloads carry it. */
  isPublished: boolean;
  status: CourseStatus;
  /** When it last became published (the dashboard's "active courses" change). */
  publishedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
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
  },
  { timestamps: true },
);
courseSchema.index({ updatedAt: -1 });

export const courseModel = (store: Connection): Model<CourseDoc> =>
  (store.models.Course as Model<CourseDoc>) ?? store.model<CourseDoc>('Course', courseSchema, 'courses');
