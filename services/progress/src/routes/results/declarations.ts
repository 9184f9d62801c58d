import { PROGRESS_MSG, resultsExportQuerySchema, resultsQuerySchema } from '@portal/contracts';
import { defineExportRoute, defineRoute } from '@portal/service-kit';
import { readResults } from '../../policies/results';
import { resultsPageSchema } from './schema';

const ownScope = 'Учащийся видит только свои попытки; ADMIN — все; CURATOR — попытки курсов, где он автор или соавтор.';
const notOwn = { 403: { description: 'Учащийся указал в userId не себя', example: PROGRESS_MSG.notOwnResults } };

/** Quiz results (docs/decisions/037): a page of finished attempts and the summary of all the filters select. */
export const listResults = defineRoute({
  method: 'GET',
  path: '/api/results',
  operationId: 'listResults',
  summary: 'Результаты квизов',
  description: ownScope,
  access: readResults,
  query: resultsQuerySchema,
  ok: { status: 200, description: 'Страница результатов и сводка', schema: resultsPageSchema },
  also: notOwn,
  // 152-FZ: other people's results are personal data; one record per page read, never one per row.
  audit: ['results.viewed'],
});

export const exportResults = defineExportRoute({
  method: 'GET',
  path: '/api/results/export',
  operationId: 'exportResults',
  summary: 'Результаты в CSV или XLSX (quiz_results.csv)',
  description: `${ownScope} Те же фильтры, что у списка, все строки; даты — в часовом поясе \`tz\`.`,
  access: readResults,
  query: resultsExportQuerySchema,
  file: 'quiz_results',
  also: notOwn,
  audit: ['results.exported'],
});
