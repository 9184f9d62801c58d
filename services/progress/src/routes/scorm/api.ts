/**
 * The progress service's SCORM routes as declarations: what the gateway documents and the security
 * matrix checks. Data only (no store, no router).
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { analyzeScormLesson, commitScormAttempt, exportScormAttempts, listScormAttempts, openScormAttempt } from './declarations';

export const progressScormApi: readonly RouteDeclaration[] = [
  openScormAttempt,
  commitScormAttempt,
  listScormAttempts,
  exportScormAttempts,
  analyzeScormLesson,
];
