import { Schema, type Types } from 'mongoose';
import { storeModel } from '@portal/service-kit';
import type { ImportCounts, ImportRow } from '@portal/contracts';

/**
 * A staff import between its preview and its last batch: the rows the file gave (kept by the
 * server, so each batch writes what the preview showed and nothing a client made up), how far the
 * run has come and what it did. The rows are dropped when the run finishes; a preview nobody ran
 * is removed after a day.
 */
export interface StaffImportDoc {
  _id: Types.ObjectId;
  by: string;
  byRole: string;
  fileName: string;
  /** The rows that are not errors, in file order (errors are only shown). */
  rows: ImportRow[];
  total: number;
  done: number;
  counts: ImportCounts;
  createdAt: Date;
  finishedAt: Date | null;
}

const countsSchema = new Schema<ImportCounts>(
  {
    new: { type: Number, default: 0 },
    update: { type: Number, default: 0 },
    same: { type: Number, default: 0 },
    error: { type: Number, default: 0 },
  },
  { _id: false },
);

const staffImportSchema = new Schema<StaffImportDoc>(
  {
    by: { type: String, required: true },
    byRole: { type: String, required: true },
    fileName: { type: String, default: '' },
    rows: { type: Schema.Types.Mixed, default: [] },
    total: { type: Number, required: true },
    done: { type: Number, default: 0 },
    counts: { type: countsSchema, default: () => ({}) },
    createdAt: { type: Date, default: Date.now },
    finishedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

export const staffImportModel = storeModel<StaffImportDoc>('StaffImport', staffImportSchema, 'staff_imports');
