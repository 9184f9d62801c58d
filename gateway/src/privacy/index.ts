import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import {
  MSG,
  PRIVACY_MSG,
  SUBJECT_REQUEST_LABELS,
  formatMessage,
  subjectExportQuerySchema,
  type DashboardSource,
  type SubjectRequest,
} from '@portal/contracts';
import { EXPORT_CONTENT_TYPES, dateTimeText, loadExcel, renderAct, type SubjectData } from '@portal/service-kit';
import { readableCsv, readableJson, readableTables, xlsxCell } from './readable';
import type { Upstreams } from '@portal/service-kit';
import { verifyCaller } from '../dashboard/sources';

/** How long one service may take to collect or forget a person. */
const SERVICE_BUDGET_MS = 30_000;
/** The services that hold personal data, in the order they forget it: auth last, so the others still know the name. */
const HOLDERS: DashboardSource[] = ['progress', 'audit', 'crm', 'content', 'auth'];
const SERVICE_LABELS: Record<DashboardSource, string> = {
  auth: 'Учётные записи',
  content: 'Курсы и файлы',
  progress: 'Обучение',
  crm: 'CRM',
  audit: 'Журнал действий',
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** «Удалённый пользователь №12345678»: a number of the account's own, never its name. */
export const aliasOf = (userId: string): string =>
  formatMessage(PRIVACY_MSG.alias, { n: String(parseInt(userId.slice(-6), 16) || 0).padStart(8, '0') });

/**
 * The data-subject requests the gateway carries out, since they need every service (152-FZ):
 * GET /api/subject-requests/{id}/export (everything about the person, JSON or XLSX) and
 * POST /api/subject-requests/{id}/anonymise (every service forgets them; an act is written and kept).
 * ADMIN only; the list and the filing are the auth service's own routes.
 */
export function subjectRequestRoutes(targets: Record<DashboardSource, Upstreams>, internalToken: string, logger: Logger): Router {
  const router = Router();

  const internal = async <T>(source: DashboardSource, path: string, req: Request, body?: unknown): Promise<T> => {
    const res = await targets[source].fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        'x-internal-token': internalToken,
        'x-request-id': String(req.headers['x-request-id'] ?? ''),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(SERVICE_BUDGET_MS),
    });
    const answer = (await res.json().catch(() => null)) as T & { message?: string };
    if (res.status === 404 || res.status === 409) throw new Refusal(res.status, answer?.message ?? PRIVACY_MSG.requestNotFound);
    if (!res.ok) throw new Refusal(503, MSG.serviceUnavailable);
    return answer;
  };

  /** The ADMIN asking, and the request they name. */
  const admit = async (req: Request): Promise<{ admin: { id: string; fullName: string }; request: SubjectRequest }> => {
    const authorization = req.get('authorization');
    if (!authorization) throw new Refusal(401, MSG.unauthorized);
    const caller = await verifyCaller(targets.auth, req, authorization, 3000);
    if ('status' in caller) throw new Refusal(caller.status, caller.message);
    if (caller.user.role !== 'ADMIN') throw new Refusal(403, MSG.forbidden);
    if (!/^[a-f0-9]{24}$/i.test(String(req.params.id))) throw new Refusal(404, PRIVACY_MSG.requestNotFound);
    const request = await internal<SubjectRequest>('auth', `/internal/subject-requests/${req.params.id}`, req);
    return { admin: caller.user, request };
  };

  const handle = (work: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await work(req, res);
    } catch (err) {
      if (err instanceof Refusal) return void res.status(err.status).json({ message: err.message, statusCode: err.status });
      logger.error({ err }, 'subject request failed');
      res.status(503).json({ message: MSG.serviceUnavailable, statusCode: 503 });
    }
  };

  const collect = async (req: Request, request: SubjectRequest) => {
    const who = new URLSearchParams({ fullName: request.user.fullName, email: request.user.email });
    const answers = await Promise.all(
      HOLDERS.map(
        async (source) =>
          [source, await internal<SubjectData>(source, `/internal/subjects/${request.user.id}?${who}`, req)] as const,
      ),
    );
    return Object.fromEntries(answers) as Partial<Record<DashboardSource, SubjectData>>;
  };

  router.get(
    '/api/subject-requests/:id/export',
    handle(async (req, res) => {
      const query = subjectExportQuerySchema.safeParse(req.query);
      if (!query.success) throw new Refusal(400, query.error.issues[0].message);
      const { admin, request } = await admit(req);
      const data = await collect(req, request);
      const { format, tz } = query.data;
      const tables = readableTables(data, tz);
      const file = `personal-data-${request.user.id}.${format}`;
      res.setHeader('Content-Disposition', `attachment; filename="${file}"`);
      if (format === 'json') {
        res.json({
          Запрос: { Вид: SUBJECT_REQUEST_LABELS[request.kind], Подан: dateTimeText(new Date(request.createdAt), tz) },
          Человек: { ФИО: request.user.fullName, Email: request.user.email },
          'Часовой пояс': tz,
          Данные: readableJson(tables, tz),
        });
      } else if (format === 'csv') {
        res.setHeader('Content-Type', EXPORT_CONTENT_TYPES.csv);
        res.send(readableCsv(tables, tz));
      } else {
        const book = new (await loadExcel()).Workbook();
        for (const table of tables) {
          const sheet = book.addWorksheet(table.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
          sheet.columns = table.headers.map((header) => ({ header, width: Math.min(60, Math.max(14, header.length + 2)) }));
          sheet.getRow(1).font = { bold: true };
          for (const row of table.rows) {
            const added = sheet.addRow(row.map((c) => xlsxCell(c, tz)));
            row.forEach((c, i) => {
              if (c instanceof Date) added.getCell(i + 1).numFmt = 'dd.mm.yyyy hh:mm';
            });
          }
        }
        res.setHeader('Content-Type', EXPORT_CONTENT_TYPES.xlsx);
        await book.xlsx.write(res);
        res.end();
      }
      if (request.kind === 'export' && request.status === 'open')
        await internal('auth', `/internal/subject-requests/${request.id}/done`, req, { completedBy: admin.id }).catch(
          (err: Error) => logger.warn({ err: err.message }, 'subject request not marked done'),
        );
    }),
  );

  router.post(
    '/api/subject-requests/:id/anonymise',
    handle(async (req, res) => {
      const { admin, request } = await admit(req);
      if (request.kind !== 'anonymise') throw new Refusal(409, PRIVACY_MSG.notAnonymise);
      if (request.status === 'done') throw new Refusal(409, PRIVACY_MSG.alreadyDone);
      if (request.user.id === admin.id) throw new Refusal(409, PRIVACY_MSG.selfAnonymise);
      const identity = { alias: aliasOf(request.user.id), fullName: request.user.fullName, email: request.user.email };
      const summary: Record<string, number> = {};
      // One service after another, auth last: a failure half-way leaves the request open, and doing it
      // again finishes the job (each service's step only rewrites what still names the person).
      for (const source of HOLDERS) {
        const changed = await internal<Record<string, number>>(
          source,
          `/internal/subjects/${request.user.id}/anonymise`,
          req,
          identity,
        );
        // «Журнал действий: Журнал действий» says it twice: a collection named as its service is named once.
        for (const [name, n] of Object.entries(changed))
          summary[name === SERVICE_LABELS[source] ? name : `${SERVICE_LABELS[source]}: ${name}`] = n;
      }
      const at = new Date();
      const { number } = await internal<{ number: string }>(
        'auth',
        `/internal/subject-requests/${request.id}/act-number`,
        req,
        {},
      );
      const act = await renderAct({
        title: formatMessage(PRIVACY_MSG.actTitle, { n: number }),
        createdAt: at,
        paragraphs: [
          `Дата и время: ${at.toLocaleString('ru-RU', { timeZone: 'Europe/Moscow' })} (МСК).`,
          `Основание: ${request.reason === 'withdrawal' ? 'отзыв согласия на обработку персональных данных' : 'решение администратора'}; запрос «${SUBJECT_REQUEST_LABELS[request.kind]}» от ${new Date(request.createdAt).toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow' })}.`,
          `Субъект персональных данных: учётная запись ${request.user.id}, далее — «${identity.alias}».`,
          'Выполнено: фамилия, имя, отчество заменены обозначением, адрес электронной почты, подразделение, должность и контактные данные удалены, пароль заменён, все сеансы завершены. Результаты обучения и статистика сохранены без сведений, позволяющих определить личность.',
          ...Object.entries(summary).map(([name, n]) => `${name}: изменено записей — ${n}.`),
          `Выполнил: ${admin.fullName} (администратор).`,
        ],
      });
      const done = await internal<SubjectRequest>('auth', `/internal/subject-requests/${request.id}/done`, req, {
        completedBy: admin.id,
        summary,
        act: act.toString('base64'),
        alias: identity.alias,
      });
      res.json(done);
    }),
  );

  return router;
}
