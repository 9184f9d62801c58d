import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { BLOCK_RECORD_TYPES, LESSON_STATUSES, type BlockRecordType, type LessonStatus } from '@portal/contracts';

/**
 * Modules and lessons are block records (spec section 3). A module's content is its description;
 * a lesson's content is the serialised, validated list of its content blocks.
 */
export interface BlockDoc {
  _id: Types.ObjectId;
  type: BlockRecordType;
  courseId: Types.ObjectId;
  /** Lessons only: the module they sit in. */
  moduleId: Types.ObjectId | null;
  title: string;
  description: string;
  content: string;
  /** 0..n-1 among siblings (modules of a course, lessons of a module), without gaps. */
  position: number;
  status: LessonStatus;
  createdAt: Date;
  updatedAt: Date;
}

const blockSchema = new Schema<BlockDoc>(
  {
    type: { type: String, enum: BLOCK_RECORD_TYPES, required: true },
    courseId: { type: Schema.Types.ObjectId, required: true },
    moduleId: { type: Schema.Types.ObjectId, default: null },
    title: { type: String, required: true, trim: true, maxlength: 300 },
    description: { type: String, default: '' },
    content: { type: String, default: '' },
    position: { type: Number, required: true, min: 0 },
    status: { type: String, enum: LESSON_STATUSES, default: 'draft' },
  },
  { timestamps: true },
);
blockSchema.index({ courseId: 1, type: 1, position: 1 });
blockSchema.index({ moduleId: 1, position: 1 });

export const blockModel = (store: Connection): Model<BlockDoc> =>
  (store.models.Block as Model<BlockDoc>) ?? store.model<BlockDoc>('Block', blockSchema, 'blocks');
