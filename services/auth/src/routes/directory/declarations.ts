import { z } from 'zod';
import {
  DIRECTORY_MSG,
  DIRECTORY_OUTCOMES,
  DIRECTORY_RUN_MODES,
  DIRECTORY_RUN_STATUSES,
  ROLES,
  directoryOutcomeListQuerySchema,
  directoryRunListQuerySchema,
  directoryRunStartSchema,
  type DirectoryConfig,
  type DirectoryPersonOutcome,
  type DirectoryRun,
} from '@portal/contracts';
import { conforms, defineRoute, isoDateTime, pageFields } from '@portal/service-kit';
import { syncDirectory } from '../../policies/users';
import { EXAMPLE_ID, idParams } from '../schema';

const counts = z.object(
  Object.fromEntries(DIRECTORY_OUTCOMES.map((o) => [o, z.number().int()])) as Record<
    (typeof DIRECTORY_OUTCOMES)[number],
    z.ZodNumber
  >,
);

export const directoryConfigSchema = conforms<DirectoryConfig>().as(
  z
    .object({
      enabled: z.boolean(),
      url: z.string().meta({ example: 'ldaps://dc1.example.ru:636' }),
      bindDn: z.string().meta({ example: 'CN=portal-sync,OU=Service,DC=example,DC=ru' }),
      bindPasswordSet: z
        .boolean()
        .meta({ description: 'Задан ли пароль учётной записи синхронизации (сам пароль не показывается)' }),
      baseDn: z.string().meta({ example: 'OU=Staff,DC=example,DC=ru' }),
      filter: z.string().meta({ example: '(&(objectCategory=person)(objectClass=user))' }),
      pageSize: z.number().int(),
      attributes: z.object({
        id: z.string(),
        lastName: z.string(),
        firstName: z.string(),
        middleName: z.string(),
        email: z.string(),
        department: z.string(),
        position: z.string(),
        groups: z.string(),
        disabled: z.string(),
      }),
      groupRoles: z.array(z.object({ group: z.string(), role: z.enum(ROLES) })),
      defaultRole: z.enum(ROLES),
      graceDays: z.number(),
      everyMinutes: z.number().int(),
    })
    .meta({ id: 'DirectoryConfig' }),
);

export const directoryRunSchema = conforms<DirectoryRun>().as(
  z
    .object({
      id: z.string().meta({ example: EXAMPLE_ID }),
      mode: z.enum(DIRECTORY_RUN_MODES),
      status: z.enum(DIRECTORY_RUN_STATUSES),
      trigger: z.enum(['schedule', 'admin']),
      by: z.object({ id: z.string(), fullName: z.string() }).nullable(),
      previewId: z.string().nullable(),
      read: z.number().int(),
      pages: z.number().int(),
      counts,
      error: z.string().nullable().meta({ example: 'Сервер каталога LDAP недоступен: соединение отклонено. Никто не изменён' }),
      createdAt: isoDateTime,
      startedAt: isoDateTime.nullable(),
      finishedAt: isoDateTime.nullable(),
    })
    .meta({ id: 'DirectoryRun' }),
);

const outcomeSchema = conforms<DirectoryPersonOutcome>().as(
  z
    .object({
      outcome: z.enum(DIRECTORY_OUTCOMES),
      directoryId: z.string(),
      userId: z.string().nullable(),
      email: z.string(),
      fullName: z.string(),
      department: z.string(),
      position: z.string(),
      role: z.enum(ROLES).nullable(),
      reason: z.string().meta({ example: 'подразделение: Склад → ИТ' }),
    })
    .meta({ id: 'DirectoryPersonOutcome' }),
);

/** A page of a list counted exactly (the runs and outcomes of one directory are few). */
const pageOf = <T extends z.ZodType>(item: T, name: string) => z.object(pageFields(item)).meta({ id: name });

export const getDirectoryConfig = defineRoute({
  method: 'GET',
  path: '/api/directory/config',
  operationId: 'getDirectoryConfig',
  summary: 'Настройки синхронизации с каталогом (LDAP / AD)',
  description:
    'Адрес, база и фильтр поиска, сопоставление атрибутов и групп, период и льготный срок. Пароль учётной записи синхронизации не показывается никогда: только задан ли он.',
  access: syncDirectory,
  ok: { status: 200, description: 'Настройки', schema: directoryConfigSchema },
});

export const listDirectoryRuns = defineRoute({
  method: 'GET',
  path: '/api/directory/runs',
  operationId: 'listDirectoryRuns',
  summary: 'Запуски синхронизации с каталогом',
  description: 'Последние запуски, новые первыми: предпросмотры и применённые, со счётчиками и ошибкой.',
  access: syncDirectory,
  query: directoryRunListQuerySchema,
  ok: { status: 200, description: 'Страница запусков', schema: pageOf(directoryRunSchema, 'DirectoryRunPage') },
});

export const getDirectoryRun = defineRoute({
  method: 'GET',
  path: '/api/directory/runs/:id',
  operationId: 'getDirectoryRun',
  summary: 'Запуск синхронизации',
  access: syncDirectory,
  params: idParams('Идентификатор запуска'),
  ok: { status: 200, description: 'Запуск', schema: directoryRunSchema },
  also: { 404: { description: 'Запуска нет', example: DIRECTORY_MSG.runNotFound } },
});

export const listDirectoryRunPeople = defineRoute({
  method: 'GET',
  path: '/api/directory/runs/:id/people',
  operationId: 'listDirectoryRunPeople',
  summary: 'Исходы запуска по сотрудникам',
  description:
    'Каждый сотрудник, которого запуск создаёт, меняет, приостанавливает, деактивирует или восстанавливает, и ошибки с причиной; «без изменений» только считаются.',
  access: syncDirectory,
  params: idParams('Идентификатор запуска'),
  query: directoryOutcomeListQuerySchema,
  ok: { status: 200, description: 'Страница исходов', schema: pageOf(outcomeSchema, 'DirectoryPersonOutcomePage') },
  also: { 404: { description: 'Запуска нет', example: DIRECTORY_MSG.runNotFound } },
  // 152-FZ: who read whose personal data, one record per page (docs/decisions/046).
  audit: ['directoryRun.peopleViewed'],
});

export const startDirectoryRun = defineRoute({
  method: 'POST',
  path: '/api/directory/runs',
  operationId: 'startDirectoryRun',
  summary: 'Запустить синхронизацию: предпросмотр или применение',
  description:
    'Запуск ставится в общую очередь: в любой момент идёт один запуск на все реплики. Предпросмотр читает весь каталог и считает исход каждого сотрудника, ничего не меняя. Применение (в том числе по предпросмотру previewId) читает каталог заново и применяет изменения; оно записывается в журнал со счётчиками.',
  access: syncDirectory,
  body: directoryRunStartSchema,
  example: { mode: 'preview' },
  ok: { status: 202, description: 'Запуск поставлен в очередь', schema: directoryRunSchema },
  also: {
    404: { description: 'Предпросмотра нет', example: DIRECTORY_MSG.previewNotFound },
    409: { description: 'Синхронизация не настроена', example: DIRECTORY_MSG.notConfigured },
  },
});
