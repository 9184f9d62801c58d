import { Schema } from 'mongoose';
import { QUESTION_TYPES } from '@portal/contracts';

/**
 * A quiz question's fields as stored: a quiz's and a bank's (content), and the copy an attempt
 * freezes when it starts (progress), which adds the orders it was shown in. The arrays a question
 * type does not use stay absent.
 */
export const questionFields = {
  id: { type: String, required: true },
  type: { type: String, enum: QUESTION_TYPES, required: true },
  question: { type: String, required: true },
  options: { type: [String], default: [] },
  correctAnswers: { type: [Number], default: [] },
  correctAnswer: { type: String },
  pairs: { type: [new Schema({ left: String, right: String }, { _id: false })], default: undefined },
  blanks: { type: [String], default: undefined },
  tolerance: { type: Number },
  rows: { type: [String], default: undefined },
  image: { type: String },
  imageAlt: { type: String },
  // Rectangles and polygons (the quiz engine's areaSchema), validated before they are stored.
  areas: { type: [Schema.Types.Mixed], default: undefined },
  markers: { type: [new Schema({ x: Number, y: Number, label: String }, { _id: false })], default: undefined },
  explanation: { type: String },
  order: { type: Number, default: 0 },
  points: { type: Number, default: 1 },
};

/**
 * The indexes of a list read newest first (createdAt, then _id breaking ties), alone and behind each
 * field it is filtered by: every index ends with the whole sort key, so a page is an index walk,
 * never a sort of every record.
 */
export function indexNewestFirst(schema: Schema, filteredBy: readonly string[] = []): void {
  schema.index({ createdAt: -1, _id: -1 });
  for (const field of filteredBy) schema.index({ [field]: 1, createdAt: -1, _id: -1 });
}
