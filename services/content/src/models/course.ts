import { Schema, type Connection, type Model, type Types } from 'mongoose';

export const COURSE_STATUSES = ['draft', 'published', 'hidden'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

export interface CourseDoc {
  _id: Types.ObjectId;
  title: string;
  description: string;
  price: number;
  duration: number;
  level: string;
  isPublished: boolean;
  status: CourseStatus;
  createdAt: Date;
  updatedAt: Date;
}

const courseSchema = new Schema<CourseDoc>(
  {
    title: { type: String, required: true, trim: true },
    description: { type: String, default: '' },
    price: { type: Number, default: 0, min: 0 },
    duration: { type: Number, default: 0, min: 0 },
    level: { type: String, default: 'Начальный' },
    isPublished: { type: Boolean, default: false },
    status: { type: String, enum: COURSE_STATUSES, default: 'draft', index: true },
  },
  { timestamps: true },
);

export const courseModel = (store: Connection): Model<CourseDoc> =>
  (store.models.Course as Model<CourseDoc>) ?? store.model<CourseDoc>('Course', courseSchema, 'courses');
