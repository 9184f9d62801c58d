/**
 * The progress service's declared routes beside SCORM's (`scorm/api.ts`): what the gateway documents
 * and the security matrix checks. Data only (no store, no router).
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from './notifications/declarations';
import * as programs from './programs/declarations';

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
];
