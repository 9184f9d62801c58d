import { randomUUID } from 'node:crypto';
import { Schema } from 'mongoose';
import type { GenerationJob } from '@portal/contracts';
import { storeModel } from '@portal/service-kit';

/** A job's state, in the content database: every replica reads, cancels and accepts the same one. */
export interface JobDoc extends Omit<GenerationJob, 'id' | 'createdAt' | 'updatedAt'> {
  _id: string;
  ownerId: string;
  hasProposal: boolean;
  /** Bumped when a proposal is put back after a failed accept: each round is claimed once. */
  proposalRound: number;
  nodeVersion: string | null;
  /** The course a course job is writing (its document last); null once kept or taken back. */
  draftCourseId: string | null;
  /** The work has stopped and cleaned up after itself. */
  settled: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Set when the job finishes; the job is gone after it. */
  expiresAt: Date | null;
}

const jobSchema = new Schema<JobDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    kind: { type: String, required: true },
    status: { type: String, required: true },
    stage: { type: String, required: true },
    progress: { type: Number, default: 0 },
    source: { type: String, required: true },
    notice: { type: String, default: '' },
    error: { type: String, default: null },
    courseId: { type: String, default: null },
    targetId: { type: String, default: null },
    proposal: { type: Schema.Types.Mixed, default: null },
    hasProposal: { type: Boolean, default: false },
    proposalRound: { type: Number, default: 0 },
    nodeVersion: { type: String, default: null },
    draftCourseId: { type: String, default: null },
    settled: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    expiresAt: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);

export const generationJobModel = storeModel<JobDoc>('GenerationJob', jobSchema, 'generation_jobs');

/** A job just started: running, at its first stage, nothing proposed or written yet. */
export const runningJobDoc = (
  fields: Pick<JobDoc, 'ownerId' | 'kind' | 'source' | 'notice' | 'courseId' | 'targetId'>,
  now = new Date(),
): JobDoc => ({
  ...fields,
  _id: randomUUID(),
  status: 'running',
  stage: 'structure',
  progress: 0,
  error: null,
  proposal: null,
  hasProposal: false,
  proposalRound: 0,
  nodeVersion: null,
  draftCourseId: null,
  settled: false,
  createdAt: now,
  updatedAt: now,
  expiresAt: null,
});
