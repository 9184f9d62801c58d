import type { Connection, Model } from 'mongoose';
import { assignmentExtensionModel, assignmentModel, type AssignmentDoc, type AssignmentExtensionDoc } from './assignment';
import { attemptModel, type AttemptDoc } from './attempt';
import { attemptDraftModel, type AttemptDraftDoc } from './attemptDraft';
import { candidateLinkModel, candidateUseModel, type CandidateLinkDoc, type CandidateUseDoc } from './candidateLink';
import { certificateModel, type CertificateDoc } from './certificate';
import { completionModel, type CompletionDoc } from './completion';
import { courseCompletionModel, type CourseCompletionDoc } from './courseCompletion';
import { notificationModel, type NotificationDoc } from './notification';
import {
  programAssignmentModel,
  programMemberModel,
  programModel,
  programTallyModel,
  type ProgramAssignmentDoc,
  type ProgramDoc,
  type ProgramMemberDoc,
  type ProgramTallyDoc,
} from './program';
import { scormAttemptModel, type ScormAttemptDoc } from './scormAttempt';

export interface ProgressModels {
  completions: Model<CompletionDoc>;
  courseCompletions: Model<CourseCompletionDoc>;
  attempts: Model<AttemptDoc>;
  attemptDrafts: Model<AttemptDraftDoc>;
  assignments: Model<AssignmentDoc>;
  assignmentExtensions: Model<AssignmentExtensionDoc>;
  certificates: Model<CertificateDoc>;
  notifications: Model<NotificationDoc>;
  candidateLinks: Model<CandidateLinkDoc>;
  candidateUses: Model<CandidateUseDoc>;
  scormAttempts: Model<ScormAttemptDoc>;
  programs: Model<ProgramDoc>;
  programAssignments: Model<ProgramAssignmentDoc>;
  programMembers: Model<ProgramMemberDoc>;
  programTallies: Model<ProgramTallyDoc>;
}

export const progressModels = (store: Connection): ProgressModels => ({
  completions: completionModel(store),
  courseCompletions: courseCompletionModel(store),
  attempts: attemptModel(store),
  attemptDrafts: attemptDraftModel(store),
  assignments: assignmentModel(store),
  assignmentExtensions: assignmentExtensionModel(store),
  certificates: certificateModel(store),
  notifications: notificationModel(store),
  candidateLinks: candidateLinkModel(store),
  candidateUses: candidateUseModel(store),
  scormAttempts: scormAttemptModel(store),
  programs: programModel(store),
  programAssignments: programAssignmentModel(store),
  programMembers: programMemberModel(store),
  programTallies: programTallyModel(store),
});
