import { SUBJECT_EXPORT_LIMIT, escapeRegExp, type SubjectHandlers } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { UploadDoc } from '../models/upload';
import type { UploadStore } from '../uploads/store';

/** How many of a person's files one anonymisation deletes at most (a learner answers with a handful). */
const FORGET_LIMIT = SUBJECT_EXPORT_LIMIT;

/**
 * What the content service holds about a person: the files they uploaded (a learner's answers to
 * file_upload questions; a curator's course media). Forgetting them deletes their files that no
 * course block shows (the answers): an answer file is theirs alone, while a course's picture is
 * the course's. The attempts that named those files keep the path, which now answers 404.
 */
export function contentSubjects(models: ContentModels, store: UploadStore): SubjectHandlers {
  const isCourseMedia = async (name: string) => !!(await models.blocks.exists({ content: new RegExp(escapeRegExp(name)) }));
  return {
    async collect(userId) {
      const files = await models.uploads
        .find({ uploadedBy: userId }, null, { limit: SUBJECT_EXPORT_LIMIT })
        .sort({ createdAt: 1 })
        .lean<UploadDoc[]>();
      return {
        'Загруженные файлы': files.map((f) => ({
          name: f._id,
          url: `/api/files/${f._id}`,
          originalName: f.originalName,
          mimeType: f.mimeType,
          size: f.size,
          createdAt: f.createdAt,
        })),
      };
    },
    async anonymise(userId) {
      const files = await models.uploads
        .find({ uploadedBy: userId }, { _id: 1 }, { limit: FORGET_LIMIT })
        .lean<Pick<UploadDoc, '_id'>[]>();
      let deleted = 0;
      for (const { _id: name } of files) {
        if (await isCourseMedia(name)) continue;
        await store.remove([name]);
        await models.uploads.deleteOne({ _id: name });
        deleted += 1;
      }
      return { 'Файлы ответов': deleted };
    },
  };
}
