import { Schema, type Types } from 'mongoose';
import {
  BLOCK_RECORD_TYPES,
  LESSON_STATUSES,
  type BlockRecordType,
  type ContentBlock,
  type LessonStatus,
} from '@portal/contracts';
import { storeModel, versionPlugin } from '@portal/service-kit';

/**
 * Modules and lessons are block records (type MODULE or LESSON). A module's content is its description;
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
  /**
   * Lessons: how many content blocks `content` holds and whether one is a quiz, written with the
   * content by every write of it (lessonContentFields), so the outline never reads content. Missing
   * on lessons from before: counted once when an outline meets them.
   */
  blocksCount?: number;
  hasQuiz?: boolean;
  /** Lessons: whether one of the blocks is a SCORM package's SCO (written beside hasQuiz). */
  hasScorm?: boolean;
  /** Made by the course builder or an accepted regeneration: only such content offers «Перегенерировать». */
  generated?: boolean;
  /** Moves with each write of its title, description, content or status (not with its position). */
  version?: number;
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
    blocksCount: { type: Number },
    hasQuiz: { type: Boolean },
    hasScorm: { type: Boolean },
    generated: { type: Boolean },
  },
  { timestamps: true },
);
blockSchema.plugin(versionPlugin);
blockSchema.index({ courseId: 1, type: 1, position: 1 });
blockSchema.index({ moduleId: 1, position: 1 });

export const blockModel = storeModel<BlockDoc>('Block', blockSchema, 'blocks');

/** What a lesson write stores: the serialised blocks and the two figures the outline shows of them. */
export const lessonContentFields = (
  blocks: readonly ContentBlock[],
): Pick<BlockDoc, 'content' | 'blocksCount' | 'hasQuiz' | 'hasScorm'> => ({
  content: JSON.stringify(blocks),
  blocksCount: blocks.length,
  hasQuiz: blocks.some((b) => b.type === 'quiz'),
  hasScorm: blocks.some((b) => b.type === 'scorm'),
});
