/**
 * The content service's declared public routes: what the gateway documents and the security matrix
 * checks. Data only (no store, no router). Routes not yet declared are documented by the gateway's
 * `paths/content.ts`.
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { bankRoutes } from './bank/declarations';
import { blockRoutes } from './blocks/declarations';
import { courseRoutes } from './courses/declarations';
import { generationRoutes } from './generations/declarations';
import { quizRoutes } from './quizzes/declarations';
import { launchScorm, scormFile, uploadScormPackage } from './scorm/declarations';
import { exportCourseScorm } from './scormExport/declarations';
import { uploadRoutes } from './uploads/declarations';
import { versionRoutes } from './versions/declarations';

export const contentApi: readonly RouteDeclaration[] = [
  ...courseRoutes,
  ...blockRoutes,
  exportCourseScorm,
  uploadScormPackage,
  launchScorm,
  scormFile,
  ...versionRoutes,
  ...quizRoutes,
  ...bankRoutes,
  ...uploadRoutes,
  ...generationRoutes,
];
