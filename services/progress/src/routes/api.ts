/**
 * The progress service's declared routes beside SCORM's (`scorm/api.ts`): what the gateway documents
 * and the security matrix checks. Data only (no store, no router).
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { analyzeQuiz } from './analysis/declarations';
import * as attempts from './attempts/declarations';
import * as assignments from './assignments/declarations';
import * as candidateLinks from './candidateLinks/declarations';
import * as certificates from './certificates/declarations';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from './notifications/declarations';
import * as programs from './programs/declarations';
import * as progress from './progress/declarations';
import * as results from './results/declarations';
import * as reviews from './reviews/declarations';

export const progressApi: readonly RouteDeclaration[] = [
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  programs.listProgramTemplates,
  programs.copyProgramTemplate,
  programs.listMyPrograms,
  programs.getMyProgram,
  programs.listPrograms,
  programs.createProgram,
  programs.getProgram,
  programs.updateProgram,
  programs.copyProgram,
  programs.archiveProgram,
  programs.restoreProgram,
  programs.listProgramAssignments,
  programs.createProgramAssignment,
  programs.getProgramAssignment,
  programs.deleteProgramAssignment,
  programs.extendProgramStage,
  programs.programAssignmentReport,
  programs.listProgramPeople,
  programs.getProgramPerson,
  programs.exportProgramPeople,
  reviews.listReviews,
  reviews.gradeAnswer,
  analyzeQuiz,
  certificates.verifyCertificate,
  certificates.issueCertificate,
  certificates.listMyCertificates,
  certificates.downloadCertificate,
  candidateLinks.listCandidateLinks,
  candidateLinks.createCandidateLink,
  candidateLinks.revokeCandidateLink,
  candidateLinks.viewCandidateLink,
  candidateLinks.startCandidateLink,
  progress.completeLesson,
  progress.getCourseProgress,
  progress.listCompletedLessons,
  progress.listMyProgress,
  results.listResults,
  results.exportResults,
  assignments.listMyAssignments,
  assignments.listPersonAssignments,
  assignments.listAssignments,
  assignments.createAssignment,
  assignments.getAssignment,
  assignments.updateAssignment,
  assignments.deleteAssignment,
  assignments.extendAssignment,
  assignments.listAssignmentPeople,
  assignments.assignmentReport,
  assignments.exportAssignmentPeople,
  attempts.getQuizCard,
  attempts.startAttempt,
  attempts.submitAttempt,
  attempts.getAttempt,
  attempts.saveAttemptAnswers,
];
