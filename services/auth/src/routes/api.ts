/**
 * The auth service's public API as declarations: what the gateway documents and the security matrix
 * checks. Data only (no store, no router), so either can import it without running the service.
 */
import type { RouteDeclaration } from '@portal/service-kit';
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
  exportUsers,
  listDepartments,
  listUsers,
  getUser,
  updateUser,
  deleteUser,
  issuePasswordLink,
];
