import { z } from 'zod';
import './zod-ru';
import { CONSENT_MSG } from './consent';
import { MSG } from './messages';
import { ROLES } from './roles';
import { exportFields } from './exportQuery';
import { pagingFields } from './paging';
import { personFields } from './people';

/** A required text field: missing, non-text or blank all give the one message the spec quotes. */
export const requiredText = (message: string, max = 200) => z.string({ error: message }).trim().min(1, message).max(max);

/** An email field, trimmed and lower-cased: missing or blank gives `required`, anything else not an email MSG.emailInvalid. */
export const emailField = (required: string) =>
  z.string({ error: required }).trim().toLowerCase().min(1, required).max(254, MSG.emailInvalid).pipe(z.email(MSG.emailInvalid));

const email = emailField(MSG.fillAllFields);

const password = z.string({ error: MSG.fillAllFields }).min(1, MSG.fillAllFields).max(256);

export const loginSchema = z.strictObject({ email, password });
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.strictObject({
  email,
  password: password.refine((p) => p.length >= 8, MSG.passwordTooShort),
  fullName: requiredText(MSG.enterName),
  role: z.enum(ROLES).default('CANDIDATE'),
  adminPassword: z.string().max(256).optional(),
  /** The version of the consent text the person accepted with its own checkbox (see consent.ts). */
  consentVersion: z.string().trim().max(40).optional(),
});
export type RegisterInput = z.input<typeof registerSchema>;

export interface User {
  id: string;
  email: string;
  /** Built from the parts: «Фамилия Имя Отчество» (older accounts keep the name they were given). */
  fullName: string;
  lastName: string;
  firstName: string;
  middleName: string;
  department: string;
  position: string;
  role: (typeof ROLES)[number];
  /** Optimistic concurrency: send it back (If-Match or `version`) with a write; 412 when stale. */
  version: number;
  createdAt: string;
}

export interface AuthResponse {
  user: User;
  token: string;
  message: string;
  /** A self-registration as CURATOR: the application it filed (the account is a CANDIDATE until approved). */
  application?: RoleApplication | null;
}

/* ------------------------------------------------------------ role applications («заявки») */

export const APPLICATION_STATUSES = ['pending', 'approved', 'declined'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: 'Ожидает решения',
  approved: 'Одобрена',
  declined: 'Отклонена',
};

/** A person's application for a staff role, as the directory and the person's profile show it. */
export interface RoleApplication {
  id: string;
  role: (typeof ROLES)[number];
  status: ApplicationStatus;
  createdAt: string;
  decidedAt: string | null;
  user: { id: string; email: string; fullName: string };
}

/** GET /api/auth/profile: the person, and their latest application when they filed one. */
export interface ProfileResponse {
  user: User;
  application: RoleApplication | null;
}

export const applicationListQuerySchema = z.object({
  ...pagingFields(20),
  status: z.enum(APPLICATION_STATUSES).default('pending'),
});
export type ApplicationListQuery = z.input<typeof applicationListQuerySchema>;

/**
 * An edit in the directory. Name parts, when sent, make the full name (`fullName` is then ignored);
 * without them `fullName` is required and its parts are read from it.
 */
export const userUpdateSchema = z
  .strictObject({
    fullName: requiredText(MSG.fillRequired).optional(),
    email: z.string({ error: MSG.fillRequired }).trim().toLowerCase().min(1, MSG.fillRequired).pipe(z.email(MSG.emailInvalid)),
    role: z.enum(ROLES, { error: MSG.fillRequired }),
    ...personFields,
  })
  .refine((v) => (v.lastName !== undefined || v.firstName !== undefined ? !!(v.lastName || v.firstName) : !!v.fullName), {
    message: MSG.fillRequired,
    path: ['fullName'],
  });
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

export const userListQuerySchema = z.object({
  ...pagingFields(20),
  /** Found in the name, the email, the department or the role. */
  search: z.string().trim().max(200).optional(),
  role: z.enum(ROLES).optional(),
  /** `learners`: only those an assignment can name (STUDY_ROLES), for the assignment's people picker. */
  audience: z.enum(['learners']).optional(),
  /** Exact department and position (the directory's filters). */
  department: z.string().trim().min(1).max(120).optional(),
  position: z.string().trim().min(1).max(120).optional(),
});

/** GET /api/users/departments: the departments people are in, by name, with a search in it. */
export const departmentListQuerySchema = z.object({
  ...pagingFields(50),
  search: z.string().trim().max(120).optional(),
});

/** One department as GET /api/users/departments lists it. */
export interface Department {
  name: string;
}

/** GET /api/users/export: the directory's search and role filter, every row, CSV or XLSX. */
export const userExportQuerySchema = userListQuerySchema.omit({ page: true, limit: true }).extend(exportFields);

/** Claims of the portal's access token. Services re-read the role on every request. */
export interface TokenClaims {
  sub: string;
  role: (typeof ROLES)[number];
  /** The server-side session the token belongs to: ending it ends the token in every service. */
  sid: string;
}

/** POST /api/consent: the version of the text the person read and accepted. */
export const consentAcceptSchema = z.strictObject({
  version: z.string({ error: CONSENT_MSG.required }).trim().min(1, CONSENT_MSG.required).max(40, CONSENT_MSG.outdated),
});
