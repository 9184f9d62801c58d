import { Schema } from 'mongoose';
import { storeModel } from '@portal/service-kit';

export const UPLOAD_KINDS = ['image', 'video', 'audio', 'file'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** What is known about a stored file; the bytes live on the upload volume under `_id`. */
export interface UploadDoc {
  /** The stored file name: a random UUID and an extension. */
  _id: string;
  originalName: string;
  /** Detected from the content for media; application/octet-stream for everything else. */
  mimeType: string;
  kind: UploadKind;
  size: number;
  uploadedBy: string;
  /** `answer`: a learner's file for a file_upload question, which no lesson refers to. */
  purpose?: 'answer';
  /** An answer: the quiz it answers and the course whose lesson holds it (its authors read the file). */
  quizId?: string;
  courseId?: string | null;
  createdAt: Date;
}

const uploadSchema = new Schema<UploadDoc>(
  {
    _id: { type: String, required: true },
    originalName: { type: String, default: '' },
    mimeType: { type: String, required: true },
    kind: { type: String, enum: UPLOAD_KINDS, required: true },
    size: { type: Number, required: true },
    uploadedBy: { type: String, required: true },
    purpose: { type: String, enum: ['answer'] },
    quizId: { type: String },
    courseId: { type: String, default: null },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);

export const uploadModel = storeModel<UploadDoc>('Upload', uploadSchema, 'uploads');
