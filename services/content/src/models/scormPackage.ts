import { Schema, type Types } from 'mongoose';
import { SCORM_VERSIONS, type ScormSco, type ScormVersion } from '@portal/contracts';
import { storeModel } from '@portal/service-kit';

/**
 * An uploaded SCORM package: what its manifest says and where it came from. Its files are in the
 * `scorm` GridFS bucket, named `<packageId>/<path>` with `metadata.packageId`. The document is
 * written last, after every file: a package without it is unfinished and swept.
 */
export interface ScormPackageDoc {
  _id: Types.ObjectId;
  courseId: Types.ObjectId;
  title: string;
  version: ScormVersion;
  edition: string;
  scos: ScormSco[];
  /** The files stored (directories not counted) and their unpacked bytes. */
  files: number;
  bytes: number;
  originalName: string;
  uploadedBy: string;
  createdAt: Date;
}

const scoSchema = new Schema<ScormSco>(
  {
    id: { type: String, required: true },
    title: { type: String, default: '' },
    launch: { type: String, required: true },
    path: [String],
  },
  { _id: false },
);

const scormPackageSchema = new Schema<ScormPackageDoc>(
  {
    courseId: { type: Schema.Types.ObjectId, required: true },
    title: { type: String, required: true },
    version: { type: String, enum: SCORM_VERSIONS, required: true },
    edition: { type: String, required: true },
    scos: { type: [scoSchema], default: [] },
    files: { type: Number, required: true },
    bytes: { type: Number, required: true },
    originalName: { type: String, default: '' },
    uploadedBy: { type: String, required: true },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);
scormPackageSchema.index({ courseId: 1 });

export const scormPackageModel = storeModel<ScormPackageDoc>('ScormPackage', scormPackageSchema, 'scormPackages');
