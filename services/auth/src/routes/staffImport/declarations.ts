import { IMPORT_MSG, staffImportBatchSchema, staffImportSchema, staffImportTemplateQuerySchema } from '@portal/contracts';
import { XLSX_MEDIA_TYPE, binarySchema, defineRoute } from '@portal/service-kit';
import { z } from 'zod';
import { importStaff } from '../../policies/users';
import { idParams, importBatchSchema, importPreviewSchema } from '../schema';

export const getStaffImportTemplate = defineRoute({
  method: 'GET',
  path: '/api/staff-import/template',
  operationId: 'getStaffImportTemplate',
  summary: 'Шаблон файла импорта сотрудников',
  description: 'XLSX или CSV (UTF-8, «;») со столбцами ФИО, Email, Подразделение, Должность, Роль и двумя строками-примерами.',
  access: importStaff,
  query: staffImportTemplateQuerySchema,
  ok: {
    status: 200,
    description: 'Файл шаблона',
    mediaType: XLSX_MEDIA_TYPE,
    schema: binarySchema,
    alsoAs: { 'text/csv': z.string() },
  },
});

export const previewStaffImport = defineRoute({
  method: 'POST',
  path: '/api/staff-import',
  operationId: 'previewStaffImport',
  summary: 'Предпросмотр импорта сотрудников',
  description:
    'Файл XLSX или CSV (base64) проверяется построчно: новый сотрудник, изменение, без изменений или ошибка с причиной. Ничего не записывается, кроме записи самого импорта. Куратор не может назначать роли выше своей.',
  access: importStaff,
  body: staffImportSchema,
  example: { fileName: 'штат.csv', content: 'RklPO0VtYWlsOy4uLg==' },
  ok: { status: 201, description: 'Результат каждой строки', schema: importPreviewSchema },
});

/** The finished import is recorded once, with its counts. */
export const runStaffImportBatch = defineRoute({
  method: 'POST',
  path: '/api/staff-import/:id/batch',
  operationId: 'runStaffImportBatch',
  summary: 'Следующая партия импорта',
  description:
    'Записывает до 100 строк начиная с from, снова сверяясь с хранилищем по email (повторный запуск ничего не меняет). Новым сотрудникам — одноразовая ссылка для установки пароля: письмом, если настроена почта, иначе в ответе. Завершённый импорт записывается в журнал одним событием со счётчиками.',
  access: importStaff,
  params: idParams('Идентификатор импорта'),
  body: staffImportBatchSchema,
  example: { from: 0 },
  ok: { status: 200, description: 'Партия записана', schema: importBatchSchema },
  also: { 404: { description: 'Импорта нет или он завершён', example: IMPORT_MSG.importNotFound } },
  audit: ['staff.imported'],
});
