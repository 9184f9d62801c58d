/**
 * The content service's declared public routes: what the gateway documents and the security matrix
 * checks. Data only (no store, no router). Routes not yet declared are documented by the gateway's
 * `paths/content.ts`.
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { launchScorm, scormFile, uploadScormPackage } from './scorm/declarations';
import { exportCourseScorm } from './scormExport/declarations';
import { versionRoutes } from './versions/declarations';

export const contentApi: readonly RouteDeclaration[] = [
  exportCourseScorm,
  uploadScormPackage,
  launchScorm,
  scormFile,
  ...versionRoutes,
];
