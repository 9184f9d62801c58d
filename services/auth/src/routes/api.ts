/**
 * The auth service's public API as declarations: what the gateway documents and the security matrix
 * checks. Data only (no store, no router), so either can import it without running the service.
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { approveApplication, declineApplication, listApplications } from './applications/declarations';
import {
  changePassword,
  getProfile,
  issuePasswordLink,
  listPresets,
  login,
  logout,
  logoutEverywhere,
  register,
  requestPasswordLink,
  resetPassword,
  verifyToken,
} from './auth/declarations';
import {
  exchangeCorporateSignIn,
  finishCorporateSignIn,
  getCorporateSignIn,
  getCorporateSignOut,
  startCorporateSignIn,
} from './oidc/declarations';
import { getConsent, getConsentDocument, giveConsent, withdrawConsent } from './consent/declarations';
import {
  getDirectoryConfig,
  getDirectoryRun,
  listDirectoryRunPeople,
  listDirectoryRuns,
  startDirectoryRun,
} from './directory/declarations';
import { createSubjectRequest, getSubjectRequestAct, listSubjectRequests } from './subjectRequests/declarations';
import { getStaffImportTemplate, previewStaffImport, runStaffImportBatch } from './staffImport/declarations';
import { deleteUser, exportUsers, getUser, listDepartments, listUsers, updateUser } from './users/declarations';

export * from './schema';

/** In the document's order; `/api/users/export` and `/departments` before `/api/users/:id`, as the router matches them. */
export const authApi: readonly RouteDeclaration[] = [
  register,
  login,
  getProfile,
  verifyToken,
  logout,
  logoutEverywhere,
  changePassword,
  requestPasswordLink,
  resetPassword,
  listPresets,
  getCorporateSignIn,
  startCorporateSignIn,
  finishCorporateSignIn,
  exchangeCorporateSignIn,
  getCorporateSignOut,
  exportUsers,
  listDepartments,
  listUsers,
  getUser,
  updateUser,
  deleteUser,
  issuePasswordLink,
  listApplications,
  approveApplication,
  declineApplication,
  getConsentDocument,
  getConsent,
  giveConsent,
  withdrawConsent,
  getStaffImportTemplate,
  previewStaffImport,
  runStaffImportBatch,
  listSubjectRequests,
  createSubjectRequest,
  getSubjectRequestAct,
  getDirectoryConfig,
  listDirectoryRuns,
  startDirectoryRun,
  getDirectoryRun,
  listDirectoryRunPeople,
];
