import type { Connection, Model } from 'mongoose';
import { bankQuestionModel, type BankQuestionDoc } from './bankQuestion';
import { blockModel, type BlockDoc } from './block';
import { courseModel, type CourseDoc } from './course';
import { courseMarkModel, type CourseMarkDoc } from './courseMark';
import { courseVersionModel, snapshotModel, type CourseVersionDoc, type SnapshotDoc } from './courseVersion';
import { quizModel, type QuizDoc } from './quiz';
import { scormPackageModel, type ScormPackageDoc } from './scormPackage';
import { uploadModel, type UploadDoc } from './upload';

export interface ContentModels {
  courses: Model<CourseDoc>;
  blocks: Model<BlockDoc>;
  marks: Model<CourseMarkDoc>;
  uploads: Model<UploadDoc>;
  quizzes: Model<QuizDoc>;
  bank: Model<BankQuestionDoc>;
  scormPackages: Model<ScormPackageDoc>;
  versions: Model<CourseVersionDoc>;
  snapshots: Model<SnapshotDoc>;
}

export const contentModels = (store: Connection): ContentModels => ({
  courses: courseModel(store),
  blocks: blockModel(store),
  marks: courseMarkModel(store),
  uploads: uploadModel(store),
  quizzes: quizModel(store),
  bank: bankQuestionModel(store),
  scormPackages: scormPackageModel(store),
  versions: courseVersionModel(store),
  snapshots: snapshotModel(store),
});
