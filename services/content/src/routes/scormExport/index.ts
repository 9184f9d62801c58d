import { implement, type DeclaredHandler } from '@portal/service-kit';
import { readCourseId } from '../../commands/ids';
import type { ContentModels } from '../../models';
import { collectCourseExport } from '../../scormExport/collect';
import { SCORM_EXPORT_MAX_BYTES } from '../../scormExport/messages';
import { buildScormPackage } from '../../scormExport/package';
import type { UploadStore } from '../../uploads/store';
import { exportCourseScorm } from './declarations';

/** Characters no file system takes in a name, and control characters. */
const UNSAFE_IN_NAME = /[\\/:*?"<>|\p{Cc}]+/gu;

/** The download's name: the course's title, as the author wrote it (Cyrillic kept: RFC 5987 `filename*`). */
export const packageFileName = (title: string): string =>
  `${title.replace(UNSAFE_IN_NAME, ' ').replace(/\s+/g, ' ').trim().slice(0, 150) || 'course'} (SCORM 1.2).zip`;

/**
 * GET /api/courses/:id/export/scorm beside its declaration: load (the course, its lessons, quizzes and
 * files, and who may export it) → build the zip as it is sent. Every refusal comes before a byte of it.
 */
export function scormExportRoutes(
  models: ContentModels,
  uploads: UploadStore,
  { maxBytes = SCORM_EXPORT_MAX_BYTES }: { maxBytes?: number } = {},
): DeclaredHandler[] {
  return [
    implement(exportCourseScorm, async (ctx, { params, record }) => {
      const data = await collectCourseExport(models, uploads, ctx.state.user, readCourseId(params.id, 'id'), maxBytes);
      ctx.attachment(packageFileName(data.course.title));
      ctx.type = 'application/zip';
      ctx.body = buildScormPackage(data);
      record({ code: 'course.scormExported', data: { title: data.course.title }, entityId: String(data.course._id) });
    }),
  ];
}
