import { z } from 'zod';
import './zod-ru';
import { CANDIDATE_LINK_MSG } from './candidateLinkRules';
import { MSG } from './messages';
import { emailField } from './auth';
import { CONSENT_DOCUMENT, CONSENT_MSG, CONSENT_WITHDRAWAL_BY_LINK } from './consent';
import { entityIdField } from './content';
import { pagingFields, type Page } from './paging';

/**
 * Candidate testing by link: a curator sends a time-limited link to one quiz
 * lesson of a published course; a person without an account opens it, gives a name, an email and
 * consent, and takes the quiz as a transient CANDIDATE «по ссылке» whose session reaches that quiz only.
 */
export const MAX_LINK_USES = 1000;

/** The candidate's page: `/t/{token}` (the route table's `candidateTest`). */
export const candidateLinkPath = (token: string) => `/t/${encodeURIComponent(token)}`;
export const MAX_LINK_TIME_LIMIT = 480;

/** A day (YYYY-MM-DD): the link works until the end of it, Moscow time. */
const dayField = z
  .string({ error: CANDIDATE_LINK_MSG.validUntilInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, CANDIDATE_LINK_MSG.validUntilInvalid)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), CANDIDATE_LINK_MSG.validUntilInvalid);

/** A limit the curator may set or leave empty (null): a whole number from 1 to `max`, one message for anything else. */
const optionalLimit = (max: number, message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(max, message).nullable().optional();

/** POST /api/candidate-links: where it leads and how long it works. The quiz is the lesson's. */
export const candidateLinkCreateSchema = z
  .strictObject({
    courseId: entityIdField('courseId'),
    lessonId: entityIdField('lessonId'),
    validUntil: dayField.nullable().optional(),
    maxUses: optionalLimit(MAX_LINK_USES, CANDIDATE_LINK_MSG.maxUsesInvalid),
    timeLimitMinutes: optionalLimit(MAX_LINK_TIME_LIMIT, CANDIDATE_LINK_MSG.timeLimitInvalid),
    showResult: z.boolean({ error: CANDIDATE_LINK_MSG.showResultRequired }),
  })
  .refine((v) => !!v.validUntil || !!v.maxUses, { message: CANDIDATE_LINK_MSG.validityRequired, path: ['validUntil'] });
export type CandidateLinkCreateInput = z.input<typeof candidateLinkCreateSchema>;

export const candidateLinkListQuerySchema = z.object({ ...pagingFields(20) });

/** The token in `/t/{token}`: 32 random bytes, base64url. */
export const candidateTokenField = z
  .string({ error: CANDIDATE_LINK_MSG.notFound })
  .regex(/^[A-Za-z0-9_-]{20,64}$/, CANDIDATE_LINK_MSG.notFound);

/** POST /api/candidate-links/public/{token}/start: who takes the test, and their consent. */
export const candidateStartSchema = z.strictObject({
  fullName: z
    .string({ error: CANDIDATE_LINK_MSG.nameRequired })
    .trim()
    .min(1, CANDIDATE_LINK_MSG.nameRequired)
    .max(200, CANDIDATE_LINK_MSG.nameRequired),
  email: emailField(MSG.emailInvalid),
  /** Its own checkbox, never pre-ticked: only `true` passes. */
  consent: z.literal(true, { error: CONSENT_MSG.required }),
  consentVersion: z.string({ error: CONSENT_MSG.required }).trim().min(1, CONSENT_MSG.required).max(40, CONSENT_MSG.outdated),
});
export type CandidateStartInput = z.input<typeof candidateStartSchema>;

export type CandidateLinkState = 'active' | 'revoked' | 'expired' | 'used_up';

/** A link as staff see it (never its token: only its hash is stored). */
export interface CandidateLink {
  id: string;
  courseId: string;
  courseTitle: string;
  lessonId: string;
  quizId: string;
  quizTitle: string;
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
  timeLimitMinutes: number | null;
  showResult: boolean;
  state: CandidateLinkState;
  createdBy: string;
  createdByName: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The answer to a creation: the only time the link's address is told. */
export interface CandidateLinkCreated {
  link: CandidateLink;
  token: string;
  url: string;
}

export type CandidateLinkPage = Page<CandidateLink>;

/** GET /api/candidate-links/public/{token}: what the candidate's page shows before the start. */
export interface CandidateLinkPublic {
  courseTitle: string;
  quizTitle: string;
  timeLimitMinutes: number | null;
  showResult: boolean;
  consent: { version: string; title: string; paragraphs: readonly string[] };
}

/** The start: the transient candidate's session, limited to the link's quiz. */
export interface CandidateStarted {
  token: string;
  user: { id: string; email: string; fullName: string; role: 'CANDIDATE' };
  courseId: string;
  lessonId: string;
  quizId: string;
  showResult: boolean;
}

/** What a link session may reach (carried by the principal; every service checks it). */
export interface LinkScope {
  linkId: string;
  courseId: string;
  lessonId: string;
  quizId: string;
}

/**
 * The consent a candidate «по ссылке» reads: the same consent and version, but a candidate has no
 * account menu to withdraw it from, so its last paragraph says how they withdraw it instead.
 */
export const consentDocumentForLink = (): CandidateLinkPublic['consent'] => ({
  version: CONSENT_DOCUMENT.version,
  title: CONSENT_DOCUMENT.title,
  paragraphs: [...CONSENT_DOCUMENT.paragraphs.slice(0, -1), CONSENT_WITHDRAWAL_BY_LINK],
});

/** The moment a link's last day ends: 24:00 Moscow time (UTC+3, no daylight saving). */
export const linkValidUntilMoment = (day: string): Date => new Date(Date.parse(`${day}T00:00:00+03:00`) + 86_400_000);

/** Whether a link still works, and if not, why (in the order a person would want to be told). */
export function linkState(
  link: { revokedAt: Date | null; validUntil: string | null; maxUses: number | null; uses: number },
  now: Date,
): CandidateLinkState {
  if (link.revokedAt) return 'revoked';
  if (link.validUntil && linkValidUntilMoment(link.validUntil).getTime() <= now.getTime()) return 'expired';
  if (link.maxUses !== null && link.uses >= link.maxUses) return 'used_up';
  return 'active';
}

export const LINK_STATE_MSG: Record<Exclude<CandidateLinkState, 'active'>, string> = {
  revoked: CANDIDATE_LINK_MSG.revoked,
  expired: CANDIDATE_LINK_MSG.expired,
  used_up: CANDIDATE_LINK_MSG.usedUp,
};

const enc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The requests a link session may make: its quiz in its lesson of its course (through the player and
 * the reads the progress service makes with the candidate's token), its own attempts, an answer file,
 * its profile and signing out. Anything else is 403, in every service (service kit's authenticate).
 */
export function linkSessionAllows(scope: LinkScope, method: string, path: string): boolean {
  const p = path.replace(/\/+$/, '');
  const m = method.toUpperCase();
  const read = m === 'GET' || m === 'HEAD';
  const rules: Array<[boolean, RegExp]> = [
    [read, new RegExp(`^/api/courses/${enc(scope.courseId)}/outline$`)],
    [read, new RegExp(`^/api/blocks/${enc(scope.lessonId)}$`)],
    [read, new RegExp(`^/api/quizzes/${enc(scope.quizId)}$`)],
    [read, new RegExp(`^/api/attempts/quiz/${enc(scope.quizId)}$`)],
    [m === 'POST', /^\/api\/attempts$/],
    [m === 'POST', /^\/api\/attempts\/[A-Za-z0-9_-]+\/submit$/],
    // The answers saved as they go (docs/decisions/095): a candidate's laptop dies mid-test too.
    [m === 'PUT', /^\/api\/attempts\/[A-Za-z0-9_-]+\/answers$/],
    [read, /^\/api\/attempts\/[A-Za-z0-9_-]+$/],
    [m === 'POST', /^\/api\/upload\/answer$/],
    [read, /^\/api\/auth\/profile$/],
    [m === 'POST', /^\/api\/auth\/logout$/],
  ];
  return rules.some(([ok, re]) => ok && re.test(p));
}
