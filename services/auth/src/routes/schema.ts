import { z } from 'zod';
import {
  APPLICATION_STATUSES,
  ROLES,
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
  type AuthResponse,
  type ConsentState,
  type Department,
  type ImportBatchResult,
  type ImportPreview,
  type PasswordResetLink,
  type ProfileResponse,
  type RoleApplication,
  type SubjectRequest,
  type User,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime, pageOf } from '@portal/service-kit';

/** What an id of a record looks like, for examples. */
const id = z.string().meta({ example: EXAMPLE_ID });
const role = z.enum(ROLES);

/** Path parameters: the id of a record. */
export const idParams = (description: string) => z.object({ id: z.string().meta({ description, example: EXAMPLE_ID }) });

/* The auth service's answers on the wire; `conforms` fails the build when one parts from its contracts interface. */

export const messageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });

/** A department people are in (GET /api/users/departments). */
export const departmentSchema = conforms<Department>().as(
  z.object({ name: z.string().meta({ example: 'Отдел продаж' }) }).meta({ id: 'Department' }),
);
export const departmentPageSchema = pageOf(departmentSchema, 'DepartmentPage');

export const userSchema = conforms<User>().as(
  z
    .object({
      id,
      email: z.string().meta({ example: 'ivan.petrov@example.ru' }),
      fullName: z.string().meta({ example: 'Петров Иван Сергеевич' }),
      lastName: z.string().meta({ example: 'Петров' }),
      firstName: z.string().meta({ example: 'Иван' }),
      middleName: z.string().meta({ example: 'Сергеевич' }),
      department: z.string().meta({ example: 'Отдел продаж' }),
      position: z.string().meta({ example: 'Менеджер по продажам' }),
      role,
      version: z.number().int(),
      createdAt: isoDateTime,
    })
    .meta({ id: 'User' }),
);
export const userPageSchema = pageOf(userSchema, 'UserPage');

export const applicationSchema = conforms<RoleApplication>().as(
  z
    .object({
      id,
      role,
      status: z.enum(APPLICATION_STATUSES),
      createdAt: isoDateTime,
      decidedAt: isoDateTime.nullable(),
      user: z.object({ id, email: z.string(), fullName: z.string() }),
    })
    .meta({ id: 'RoleApplication' }),
);
export const applicationPageSchema = pageOf(applicationSchema, 'RoleApplicationPage');

export const authResponseSchema = conforms<AuthResponse>().as(
  z
    .object({
      user: userSchema,
      token: z.string().meta({ description: 'JWT для заголовка Authorization: Bearer' }),
      message: z.string().meta({ example: 'Вход выполнен успешно' }),
      application: applicationSchema.nullable().optional(),
    })
    .meta({ id: 'AuthResponse' }),
);

export const profileSchema = conforms<ProfileResponse>().as(
  z.object({ user: userSchema, application: applicationSchema.nullable() }).meta({ id: 'Profile' }),
);

export const verifySchema = z
  .object({
    valid: z.literal(true),
    user: z.object({
      id,
      email: z.string(),
      fullName: z.string(),
      role,
      department: z.string().optional(),
      consentGiven: z
        .boolean()
        .optional()
        .meta({ description: 'Действует ли согласие на обработку персональных данных: без него обучение недоступно (403)' }),
    }),
  })
  .meta({ id: 'TokenCheck' });

export const presetsSchema = z
  .object({
    data: z.array(
      z.object({
        email: z.string(),
        password: z.string(),
        fullName: z.string(),
        role,
        description: z.string(),
        guest: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'PresetAccounts', description: 'Учётные записи для быстрого входа; пустой список, когда они выключены' });

export const resetLinkSchema = conforms<PasswordResetLink>().as(
  z
    .object({ path: z.string().meta({ example: '/auth/reset?token=…' }), expiresAt: isoDateTime })
    .meta({ id: 'PasswordResetLink' }),
);

export const applicationDecisionSchema = z
  .object({ application: applicationSchema, user: userSchema, message: z.string() })
  .meta({ id: 'ApplicationDecision' });

export const consentDocumentSchema = z
  .object({ version: z.string(), title: z.string(), paragraphs: z.array(z.string()) })
  .meta({ id: 'ConsentDocument' });

export const consentStateSchema = conforms<ConsentState>().as(
  z
    .object({
      version: z.string().meta({ example: '2026-11-25' }),
      title: z.string(),
      consent: z
        .object({ version: z.string(), acceptedAt: isoDateTime, withdrawnAt: isoDateTime.nullable() })
        .nullable()
        .meta({ description: 'The latest consent (to any version), or null' }),
      required: z.boolean().meta({ description: 'No consent in force to the current version: ask before going on' }),
    })
    .meta({ id: 'ConsentState' }),
);

/** POST /api/consent and /api/consent/withdraw: the new state, with what to tell the person. */
export const consentAnswerSchema = consentStateSchema
  .extend({ message: z.string().meta({ example: 'Согласие принято' }) })
  .meta({ id: 'ConsentAnswer' });

const importCounts = z
  .object({ new: z.number().int(), update: z.number().int(), same: z.number().int(), error: z.number().int() })
  .meta({ id: 'ImportCounts' });

const importRow = z
  .object({
    row: z.number().int().meta({ example: 2 }),
    fullName: z.string().meta({ example: 'Иванова Мария Сергеевна' }),
    email: z.string().meta({ example: 'm.ivanova@example.ru' }),
    department: z.string(),
    position: z.string(),
    role: z.enum(ROLES).nullable(),
    outcome: z.enum(['new', 'update', 'same', 'error']),
    reason: z.string().optional().meta({ example: 'Некорректный email' }),
  })
  .meta({ id: 'ImportRow' });

export const importPreviewSchema = conforms<ImportPreview>().as(
  z
    .object({ id, fileName: z.string(), total: z.number().int(), counts: importCounts, rows: z.array(importRow) })
    .meta({ id: 'ImportPreview' }),
);

export const importBatchSchema = conforms<ImportBatchResult>().as(
  z
    .object({
      done: z.number().int(),
      total: z.number().int(),
      finished: z.boolean(),
      counts: importCounts,
      created: z.array(z.object({ email: z.string(), fullName: z.string(), link: z.string().nullable(), mailed: z.boolean() })),
    })
    .meta({ id: 'ImportBatch' }),
);

/** A data-subject request (152-FZ); the gateway's export and anonymisation answer with it too. */
export const subjectRequestSchema = conforms<SubjectRequest>().as(
  z
    .object({
      id: z.string(),
      kind: z.enum(SUBJECT_REQUEST_KINDS),
      reason: z.enum(['withdrawal', 'admin']),
      status: z.enum(SUBJECT_REQUEST_STATUSES),
      user: z.object({ id: z.string(), fullName: z.string(), email: z.string() }),
      filedBy: z.string(),
      createdAt: z.string(),
      completedAt: z.string().nullable(),
      completedBy: z.string().nullable(),
      summary: z.record(z.string(), z.number()).nullable(),
      hasAct: z.boolean(),
    })
    .meta({ id: 'SubjectRequest' }),
);
export const subjectRequestPageSchema = pageOf(subjectRequestSchema, 'SubjectRequestPage');

export { EXAMPLE_ID };
