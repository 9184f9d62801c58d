import { z } from 'zod';
import {
  CONTENT_MSG,
  ROLES,
  SCORM_LIMITS,
  SCORM_MSG,
  STAFF_ROLES,
  formatMessage,
  scormLaunchSchema,
  scormUploadQuerySchema,
} from '@portal/contracts';
import { binarySchema, definePolicy, defineRoute } from '@portal/service-kit';
import { scormCourseUploadSchema, scormLaunchAnswerSchema, scormPackageSchema } from './schema';

/** Authors upload: ADMIN any course, a CURATOR one they own or co-author (the course's own rule follows its load). */
export const authorScorm = definePolicy('authorCourse', STAFF_ROLES);
/** Anyone signed in opens a SCO of a lesson they may study (the lesson's visibility follows its load). */
export const studyScorm = definePolicy('studyLesson', ROLES);

export const uploadScormPackage = defineRoute({
  method: 'POST',
  path: '/api/scorm/packages',
  operationId: 'uploadScormPackage',
  summary: 'Загрузить SCORM-пакет',
  description: [
    'Zip-архив SCORM 1.2 или SCORM 2004 (2-я, 3-я, 4-я редакции) в поле `file`. До сохранения проверяются:',
    'что это целый zip, imsmanifest.xml в корне, версия, наличие всех файлов, на которые ссылается манифест,',
    `пути (без абсолютных и «..»), отсутствие символических ссылок, не больше ${SCORM_LIMITS.maxFiles} файлов,`,
    `распакованный размер и степень сжатия (заявленные в архиве и подсчитанные при распаковке).`,
    '`mode=lesson` (по умолчанию): ответ — описание пакета, редактор ставит его в блок «SCORM-пакет» урока.',
    '`mode=course`: верхние элементы организации становятся модулями (одноуровневая организация — одним модулем',
    'с её названием), каждый SCO — опубликованным уроком с одним блоком «SCORM-пакет»; модули добавляются после',
    'имеющихся, ответ — описание пакета и созданные модули.',
  ].join(' '),
  access: authorScorm,
  query: scormUploadQuerySchema,
  // Streamed by the handler, after the course's rule: nobody uploads 300 MB to be told the course is not theirs.
  streamedBody: {
    mediaType: 'multipart/form-data',
    schema: z.object({ file: binarySchema.optional().meta({ description: 'Zip-архив пакета' }) }),
  },
  ok: {
    status: 201,
    description: 'Пакет сохранён (mode=course: и созданные модули в поле modules)',
    schema: z.union([scormCourseUploadSchema, scormPackageSchema]),
  },
  also: {
    400: { description: 'Пакет не прошёл проверку', example: SCORM_MSG.noManifest },
    403: { description: 'Курс не ваш', example: CONTENT_MSG.notCourseAuthor },
    404: { description: 'Курса нет', example: CONTENT_MSG.courseNotFound },
    413: {
      description: 'Пакет или его распакованное содержимое слишком велики',
      example: formatMessage(SCORM_MSG.tooBig, { max: 300 }),
    },
  },
  audit: ['scormPackage.uploaded'],
});

export const launchScorm = defineRoute({
  method: 'POST',
  path: '/api/scorm/launch',
  operationId: 'launchScorm',
  summary: 'Открыть SCORM-урок',
  description: `Подписанный адрес файлов пакета для фрейма урока, действует ${SCORM_LIMITS.launchTtlSeconds / 3600} ч. Файлы отдаются вне /api, по адресу /scorm/<token>/<путь>, в песочнице со своей политикой CSP.`,
  access: studyScorm,
  body: scormLaunchSchema,
  example: { lessonId: '6743a1f0c2b5e80012ab34cd' },
  ok: { status: 200, description: 'Адрес запуска', schema: scormLaunchAnswerSchema },
  also: {
    400: { description: 'В уроке нет SCORM-пакета', example: SCORM_MSG.lessonHasNoPackage },
    404: { description: 'Урока или пакета нет, или урок вам не виден', example: CONTENT_MSG.blockNotFound },
  },
  without: [403],
});

/** A package's file: the launch token in the path is the key (no bearer token: a frame cannot send one). */
export const scormFile = defineRoute({
  method: 'GET',
  path: '/scorm/:token/*path',
  operationId: 'scormFile',
  summary: 'Файл SCORM-пакета',
  description: [
    'Вне /api: запросы фрейма-песочницы приходят с `Origin: null`. Адрес даёт POST /api/scorm/launch.',
    "Ответ несёт свою политику `Content-Security-Policy: sandbox allow-scripts …; frame-ancestors 'self'`",
    '(без allow-same-origin; на отдельном адресе пакетов SCORM_ORIGIN — с allow-same-origin и frame-ancestors портала),',
    '`Cache-Control: private, max-age=3600`, `Access-Control-Allow-Origin: *`;',
    'в каждую HTML-страницу первым в `head` вставлен скрипт моста `/scorm/{token}/__portal__/bridge.js`',
    '(API SCORM через postMessage). Поддерживает `Range` (ответ 206).',
  ].join(' '),
  access: 'public',
  params: z.object({
    token: z.string().meta({ description: 'Подписанный токен запуска из ответа POST /api/scorm/launch' }),
  }),
  ok: { status: 200, description: 'Содержимое файла', mediaType: '*/*', schema: binarySchema },
  alsoOk: { 206: { description: 'Часть файла по заголовку Range', mediaType: '*/*', schema: binarySchema } },
  also: {
    403: { description: 'Ссылка устарела', example: SCORM_MSG.launchExpired },
    404: { description: 'Ссылка недействительна или такого файла в пакете нет', example: SCORM_MSG.fileNotFound },
    416: 'Запрошенная часть файла недоступна',
  },
  without: [400],
});
