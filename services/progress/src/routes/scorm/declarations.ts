import {
  ANALYSIS_SAMPLE_LIMIT,
  CONSENT_MSG,
  MSG,
  PROGRESS_MSG,
  SCORM_MSG,
  scormAttemptOpenSchema,
  scormCommitSchema,
} from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { analyzeScorm, readScormAttempts, studyScorm } from '../../scorm/policies';
import {
  scormAnalysisQuery,
  scormAnalysisSchema,
  scormAttemptExportQuery,
  scormAttemptListQuery,
  scormAttemptPageSchema,
  scormAttemptParams,
  scormAttemptStateSchema,
  scormCommitQuery,
  scormCommitResultSchema,
} from './schema';

const noAttempt = { description: 'Попытки нет, или она чужая', example: SCORM_MSG.attemptNotFound };
const noConsent = { description: 'Нет согласия на обработку персональных данных', example: CONSENT_MSG.neededToStudy };

/** The learner's current attempt at a lesson's SCO, what the player launches it with. */
export const openScormAttempt = defineRoute({
  method: 'POST',
  path: '/api/scorm/attempts',
  operationId: 'openScormAttempt',
  summary: 'Текущая попытка SCORM-урока',
  description:
    'Начинает попытку 1, если попыток нет, иначе возвращает текущую: с сохранённым деревом CMI и entry=resume, если пакет оставил закладку. ' +
    '`fresh: true` после пройденной попытки начинает следующую, если урок это разрешает.',
  access: studyScorm,
  body: scormAttemptOpenSchema,
  example: { courseId: '6743a1f0c2b5e80012ab34cd', lessonId: '6743a1f0c2b5e80012ab34ce' },
  ok: { status: 200, description: 'Попытка', schema: scormAttemptStateSchema },
  also: {
    403: noConsent,
    404: { description: 'Урока нет, он не виден учащемуся или в нём нет SCORM-пакета', example: PROGRESS_MSG.lessonNotFound },
    409: { description: 'Новые попытки в уроке не разрешены', example: SCORM_MSG.newAttemptNotAllowed },
  },
});

/** What scorm-again sends on Commit / Terminate (renderCommonCommitFields, includeCommitSequence). */
export const commitScormAttempt = defineRoute({
  method: 'POST',
  path: '/api/scorm/attempts/:id/commit',
  operationId: 'commitScormAttempt',
  summary: 'Сохранить данные SCORM-урока',
  description:
    'Применяется только коммит с commitSequence больше сохранённого: повтор и опоздавший коммит ничего не меняют, ответ тот же. ' +
    'Когда пакет сообщает о прохождении, урок засчитывается, как обычный.',
  access: studyScorm,
  params: scormAttemptParams,
  query: scormCommitQuery,
  body: scormCommitSchema,
  ok: { status: 200, description: 'Сохранено (или уже было сохранено)', schema: scormCommitResultSchema },
  also: { 403: noConsent, 404: noAttempt },
});

export const listScormAttempts = defineRoute({
  method: 'GET',
  path: '/api/scorm/attempts',
  operationId: 'listScormAttempts',
  summary: 'Попытки SCORM-уроков',
  description:
    'Учащийся видит свои попытки; администратор — все; куратор — попытки своих курсов. С баллами, временем и ответами на вопросы пакета.',
  access: readScormAttempts,
  query: scormAttemptListQuery,
  ok: { status: 200, description: 'Страница попыток', schema: scormAttemptPageSchema },
  also: { 403: { description: 'Учащийся просит чужие попытки', example: PROGRESS_MSG.notOwnResults } },
});

export const exportScormAttempts = defineExportRoute({
  method: 'GET',
  path: '/api/scorm/attempts/export',
  operationId: 'exportScormAttempts',
  summary: 'Попытки SCORM-уроков в CSV или XLSX',
  description: 'Те же фильтры и то же правило доступа, что у списка; по строке на попытку.',
  access: readScormAttempts,
  query: scormAttemptExportQuery,
  file: 'scorm_attempts',
  audit: ['scormResults.exported'],
  also: { 403: { description: 'Учащийся просит чужие попытки', example: PROGRESS_MSG.notOwnResults } },
});

export const analyzeScormLesson = defineRoute({
  method: 'GET',
  path: '/api/scorm/attempts/analysis',
  operationId: 'analyzeScormLesson',
  summary: 'Анализ вопросов SCORM-урока',
  description:
    `Вопросы (interactions), о которых сообщил пакет, по идентификатору: сколько попыток ответили, сколько верно, среднее время ответа — по последним ${ANALYSIS_SAMPLE_LIMIT} попыткам урока; attempts — число всех. ` +
    'Для авторов курса и администратора.',
  access: analyzeScorm,
  query: scormAnalysisQuery,
  ok: { status: 200, description: 'Вопросы урока', schema: scormAnalysisSchema },
  also: { 403: { description: 'Курс не из ваших', example: MSG.forbidden } },
});
