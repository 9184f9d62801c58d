import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';
import {
  DIRECTORY_OUTCOMES,
  DIRECTORY_RUN_MODES,
  DIRECTORY_RUN_STATUSES,
  ROLES,
  type DirectoryCounts,
  type DirectoryOutcome,
  type DirectoryRunMode,
  type DirectoryRunStatus,
  type Role,
} from '@portal/contracts';

/** One run of the directory sync: a preview (writes nothing but itself and its outcomes) or an apply. */
export interface DirectoryRunDoc {
  _id: Types.ObjectId;
  mode: DirectoryRunMode;
  status: DirectoryRunStatus;
  trigger: 'schedule' | 'admin';
  by: { id: string; fullName: string; email: string } | null;
  previewId: string | null;
  read: number;
  pages: number;
  counts: DirectoryCounts;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** One person's outcome in a run (every outcome but «без изменений», which is only counted). */
export interface DirectoryOutcomeDoc {
  _id: Types.ObjectId;
  runId: Types.ObjectId;
  /** The person's place in the directory's order, so a page of outcomes reads in that order. */
  n: number;
  outcome: DirectoryOutcome;
  directoryId: string;
  userId: Types.ObjectId | null;
  email: string;
  fullName: string;
  department: string;
  position: string;
  role: Role | null;
  reason: string;
}

export const emptyCounts = (): DirectoryCounts => Object.fromEntries(DIRECTORY_OUTCOMES.map((o) => [o, 0])) as DirectoryCounts;

const runSchema = new Schema<DirectoryRunDoc>(
  {
    mode: { type: String, enum: DIRECTORY_RUN_MODES, required: true },
    status: { type: String, enum: DIRECTORY_RUN_STATUSES, required: true, default: 'queued' },
    trigger: { type: String, enum: ['schedule', 'admin'], required: true },
    by: { type: new Schema({ id: String, fullName: String, email: String }, { _id: false }), default: null },
    previewId: { type: String, default: null },
    read: { type: Number, default: 0 },
    pages: { type: Number, default: 0 },
    counts: { type: Schema.Types.Mixed, default: emptyCounts },
    error: { type: String, default: null },
    startedAt: { type: Date, default: null },
    finishedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
runSchema.index({ createdAt: -1, _id: -1 });

const outcomeSchema = new Schema<DirectoryOutcomeDoc>({
  runId: { type: Schema.Types.ObjectId, required: true },
  n: { type: Number, required: true },
  outcome: { type: String, enum: DIRECTORY_OUTCOMES, required: true },
  directoryId: { type: String, default: '' },
  userId: { type: Schema.Types.ObjectId, default: null },
  email: { type: String, default: '' },
  fullName: { type: String, default: '' },
  department: { type: String, default: '' },
  position: { type: String, default: '' },
  role: { type: String, enum: [...ROLES, null], default: null },
  reason: { type: String, default: '' },
});
// A run's people in order, alone or by outcome.
outcomeSchema.index({ runId: 1, n: 1 });
outcomeSchema.index({ runId: 1, outcome: 1, n: 1 });

export const directoryRunModel = storeModel<DirectoryRunDoc>('DirectoryRun', runSchema, 'directory_runs');
export const directoryOutcomeModel = storeModel<DirectoryOutcomeDoc>('DirectoryOutcome', outcomeSchema, 'directory_outcomes');
