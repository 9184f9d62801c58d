import { z } from 'zod';
import { CONTENT_MSG, STAFF_ROLES, entityIdField, formatMessage } from '@portal/contracts';
import { binarySchema, definePolicy, defineRoute } from '@portal/service-kit';
import { SCORM_EXPORT_MAX_BYTES, SCORM_EXPORT_MSG } from '../../scormExport/messages';

/**
 * Exporting a course: the authoring roles reach the route; of them, the course's owner, co-authors and
 * any ADMIN export it (readsAsAuthor: the package carries the quizzes' answer keys).
 */
export const exportCourseAsScorm = definePolicy('exportCourseAsScorm', STAFF_ROLES);

export const exportCourseScorm = defineRoute({
  method: 'GET',
  path: '/api/courses/:id/export/scorm',
  operationId: 'exportCourseScorm',
  summary: 'Курс как пакет SCORM 1.2',
  description:
    'ZIP-архив SCORM 1.2 для другой системы обучения: imsmanifest.xml, одна страница со всеми опубликованными уроками, ' +
    'файлы курса из хранилища портала и тесты, которые проверяются в браузере учащегося (ключи ответов входят в пакет). ' +
    'Пакет сообщает системе статус прохождения и балл. Выгружают автор курса, соавторы и администратор.',
  access: exportCourseAsScorm,
  params: z.object({ id: entityIdField('id') }),
  ok: {
    status: 200,
    description: 'Пакет SCORM 1.2 (имя файла — название курса)',
    mediaType: 'application/zip',
    schema: binarySchema,
  },
  also: {
    400: { description: 'Неверный идентификатор, или в курсе нет опубликованных уроков', example: SCORM_EXPORT_MSG.noLessons },
    404: { description: 'Курса нет', example: CONTENT_MSG.courseNotFound },
    413: {
      description: 'Файлы курса вместе больше предела пакета',
      example: formatMessage(SCORM_EXPORT_MSG.tooBig, { max: SCORM_EXPORT_MAX_BYTES / (1024 * 1024) }),
    },
  },
  audit: ['course.scormExported'],
});
