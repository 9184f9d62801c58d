import { createHash, randomBytes } from 'node:crypto';
import {
  CANDIDATE_LINK_MSG,
  LINK_STATE_MSG,
  consentDocumentForLink,
  linkState,
  linkValidUntilMoment,
  type CandidateLink,
  type CandidateLinkCreateInput,
  type CandidateLinkCreated,
  type CandidateLinkPage,
  type CandidateLinkPublic,
  type CandidateStartInput,
  type CandidateStarted,
} from '@portal/contracts';
import {
  HttpError,
  badRequest,
  clock,
  conflict,
  forbidden,
  notFound,
  op,
  readPage,
  serialised,
  type Principal,
} from '@portal/service-kit';
import { isValidObjectId } from 'mongoose';
import type { CandidatesClient } from '../clients/candidates';
import type { CandidateLinkDoc } from '../models/candidateLink';
import { authorizeLinkToCourse } from '../policies/candidateLinks';
import type { ProgressDeps } from './deps';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;
/** How many taken slots a start walks past before it gives up (a burst of starts at one link). */
const MAX_CLAIM_TRIES = 50;

/** 410 «Gone» with the reason in words: revoked, expired or used up. */
const gone = (message: string) => new HttpError(410, message, 'gone');

export const presentLink = (l: CandidateLinkDoc, now = clock.now()): CandidateLink => ({
  id: String(l._id),
  courseId: l.courseId,
  courseTitle: l.courseTitle,
  lessonId: l.lessonId,
  quizId: l.quizId,
  quizTitle: l.quizTitle,
  validUntil: l.validUntil,
  maxUses: l.maxUses,
  uses: l.uses,
  timeLimitMinutes: l.timeLimitMinutes,
  showResult: l.showResult,
  state: linkState(l, now),
  createdBy: l.createdBy,
  createdByName: l.createdByName,
  createdAt: l.createdAt.toISOString(),
  revokedAt: l.revokedAt ? l.revokedAt.toISOString() : null,
});

/**
 * A new link to the quiz of one lesson of a published course the curator may change (an ADMIN any).
 * The token is told once, in this answer; only its SHA-256 is stored.
 */
export async function createLink(
  deps: ProgressDeps,
  actor: Principal,
  input: CandidateLinkCreateInput,
  linkFor: (token: string) => string,
): Promise<CandidateLinkCreated> {
  // Content is asked with this service's identity, the curator given as data: it reads as they would.
  const course = await deps.content.outlineFor(input.courseId, actor);
  authorizeLinkToCourse(actor, course);
  if (course.status !== 'published' || course.archived) throw badRequest(CANDIDATE_LINK_MSG.courseNotPublished, 'courseId');
  const listed = course.modules.some((m) => m.lessons.some((l) => l.id === input.lessonId));
  if (!listed) throw notFound(CANDIDATE_LINK_MSG.lessonHasNoQuiz);
  const quizId = await deps.content.lessonQuizFor(course.id, input.lessonId, actor);
  if (!quizId) throw badRequest(CANDIDATE_LINK_MSG.lessonHasNoQuiz, 'lessonId');
  const quiz = await deps.content.getQuiz(quizId);
  const now = clock.now();
  if (input.validUntil && linkValidUntilMoment(input.validUntil).getTime() <= now.getTime()) {
    throw badRequest(CANDIDATE_LINK_MSG.validUntilInvalid, 'validUntil');
  }
  const token = randomBytes(32).toString('base64url');
  const doc = await deps.models.candidateLinks.create({
    tokenHash: sha256(token),
    courseId: course.id,
    courseTitle: course.title,
    lessonId: input.lessonId,
    quizId: quiz.id,
    quizTitle: quiz.title,
    validUntil: input.validUntil ?? null,
    maxUses: input.maxUses ?? null,
    uses: 0,
    timeLimitMinutes: input.timeLimitMinutes ?? null,
    showResult: input.showResult,
    createdBy: actor.id,
    createdByName: actor.fullName,
    createdAt: now,
    revokedAt: null,
    revokedBy: null,
  });
  deps.audit.publish({
    code: 'candidateLink.created',
    data: { quiz: quiz.title, course: course.title, linkId: String(doc._id), courseId: course.id },
    entityId: quiz.id,
    actor,
  });
  return { link: presentLink(doc.toObject<CandidateLinkDoc>(), now), token, url: linkFor(token) };
}

/** A page of links, newest first: an ADMIN's all, a CURATOR's own. Two store reads whatever the page. */
export async function listLinks(
  deps: ProgressDeps,
  actor: Principal,
  paging: { page: number; limit: number },
): Promise<CandidateLinkPage> {
  const filter = actor.role === 'ADMIN' ? {} : { createdBy: actor.id };
  const { rows, ...counted } = await readPage(
    deps.models.candidateLinks,
    filter,
    paging,
    { createdAt: -1, _id: -1 },
    { tokenHash: 0 },
  );
  const now = clock.now();
  return { data: rows.map((l) => presentLink(l, now)), ...counted, page: paging.page, limit: paging.limit };
}

/** Revokes a link (its maker or an ADMIN): it stops working at once; attempts already begun stay. */
export async function revokeLink(deps: ProgressDeps, actor: Principal, id: string): Promise<CandidateLink> {
  const link = isValidObjectId(id) ? await deps.models.candidateLinks.findById(id).lean<CandidateLinkDoc>() : null;
  if (!link) throw notFound(CANDIDATE_LINK_MSG.notFound);
  if (actor.role !== 'ADMIN' && link.createdBy !== actor.id) throw forbidden(CANDIDATE_LINK_MSG.revokeNotYours);
  if (link.revokedAt) throw conflict(CANDIDATE_LINK_MSG.alreadyRevoked);
  const now = clock.now();
  const write = await deps.models.candidateLinks.updateOne(
    { _id: link._id, revokedAt: null },
    { $set: { revokedAt: now, revokedBy: actor.id } },
  );
  if (!write.modifiedCount) throw conflict(CANDIDATE_LINK_MSG.alreadyRevoked);
  deps.audit.publish({
    code: 'candidateLink.revoked',
    data: { quiz: link.quizTitle, course: link.courseTitle, linkId: String(link._id), courseId: link.courseId },
    entityId: link.quizId,
    actor,
  });
  return presentLink({ ...link, revokedAt: now, revokedBy: actor.id }, now);
}

/** The link behind a token while it works; 404 for an unknown token, 410 with the reason otherwise. */
async function liveLink(deps: ProgressDeps, token: string): Promise<CandidateLinkDoc> {
  const link = await deps.models.candidateLinks.findOne({ tokenHash: sha256(token) }).lean<CandidateLinkDoc>();
  if (!link) throw notFound(CANDIDATE_LINK_MSG.notFound);
  const state = linkState(link, clock.now());
  if (state !== 'active') throw gone(LINK_STATE_MSG[state]);
  return link;
}

export async function publicView(deps: ProgressDeps, token: string): Promise<CandidateLinkPublic> {
  const link = await liveLink(deps, token);
  return {
    courseTitle: link.courseTitle,
    quizTitle: link.quizTitle,
    timeLimitMinutes: link.timeLimitMinutes,
    showResult: link.showResult,
    consent: consentDocumentForLink(),
  };
}

/**
 * Claims the next use of a link: use n is a document with `_id` `<link>:<n>`, inserted once however
 * many starts race, so a link of N uses starts N times at most. 410 once none is left.
 */
async function claimUse(deps: ProgressDeps, link: CandidateLinkDoc): Promise<string> {
  const { candidateUses, candidateLinks } = deps.models;
  const linkId = String(link._id);
  for (let n = link.uses + 1, tries = 0; tries < MAX_CLAIM_TRIES; n += 1, tries += 1) {
    if (link.maxUses !== null && n > link.maxUses) break;
    const id = `${linkId}:${n}`;
    try {
      await candidateUses.create({ _id: id, linkId, userId: null, startedAt: clock.now(), purged: false });
    } catch (err) {
      if (isDuplicate(err)) continue;
      throw err;
    }
    // The count shown to staff (the claims above are what limits the starts): counted, one writer at a time.
    await serialised(candidateLinks.db, `candidate-link:${linkId}:uses`, async () => {
      const uses = await candidateUses.countDocuments({ linkId });
      await candidateLinks.updateOne({ _id: link._id }, { $set: { uses } });
    });
    return id;
  }
  throw gone(CANDIDATE_LINK_MSG.usedUp);
}

/**
 * A candidate starts the link: a use is claimed, then the auth service makes a transient CANDIDATE
 * with the consent record and a session limited to the link's quiz. A start the auth service could
 * not finish gives its use back.
 */
export async function startByLink(
  deps: ProgressDeps,
  candidates: CandidatesClient,
  token: string,
  input: CandidateStartInput,
  origin: { address: string; userAgent: string },
): Promise<CandidateStarted> {
  const link = await liveLink(deps, token);
  const useId = await claimUse(deps, link);
  let started: CandidateStarted;
  try {
    started = await candidates.create({
      fullName: input.fullName,
      email: input.email,
      consentVersion: input.consentVersion,
      scope: { linkId: String(link._id), courseId: link.courseId, lessonId: link.lessonId, quizId: link.quizId },
      // The attempt's time and a margin to read and submit; without a limit, a working day.
      sessionSeconds: link.timeLimitMinutes ? link.timeLimitMinutes * 60 + 3600 : 8 * 3600,
      ...origin,
    });
  } catch (err) {
    await deps.models.candidateUses.deleteOne({ _id: useId }).catch(() => undefined);
    throw err;
  }
  await deps.models.candidateUses.updateOne({ _id: useId }, { $set: { userId: started.user.id } });
  return { ...started, showResult: link.showResult };
}

/**
 * Deletes what the portal holds about candidates «по ссылке» who started more than `days` ago: their
 * accounts, consents and sessions (auth service), their attempts; their uses stay without a name. Idempotent and
 * bounded: at most `batch` candidates a round, rounds until none is left; one audit record by the
 * system when anyone was deleted.
 */
export async function purgeExpiredCandidates(
  deps: ProgressDeps,
  candidates: CandidatesClient,
  { days, batch = 200, now = clock.now() }: { days: number; batch?: number; now?: Date },
): Promise<{ deleted: number }> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (let round = 0; round < 1000; round += 1) {
    const uses = await deps.models.candidateUses
      .find({ startedAt: op({ $lt: cutoff }), purged: false }, { userId: 1 })
      .limit(batch)
      .lean<Array<{ _id: string; userId: string | null }>>();
    if (!uses.length) break;
    const userIds = uses.map((u) => u.userId).filter((id): id is string => !!id);
    if (userIds.length) {
      await candidates.purge(userIds);
      await deps.models.attempts.deleteMany({ userId: op({ $in: userIds }), viaLinkId: op({ $ne: null }) });
      await deps.models.attemptDrafts.deleteMany({ userId: op({ $in: userIds }) });
      await deps.models.completions.deleteMany({ userId: op({ $in: userIds }) });
      await deps.models.courseCompletions.deleteMany({ userId: op({ $in: userIds }) });
    }
    // The uses stay (they count the link's starts), without anyone behind them.
    await deps.models.candidateUses.updateMany(
      { _id: op({ $in: uses.map((u) => u._id) }) },
      { $set: { userId: null, purged: true } },
    );
    deleted += userIds.length;
    if (uses.length < batch) break;
  }
  if (deleted) {
    deps.audit.publish({ code: 'candidates.purged', data: { days, deleted }, entityId: null, actor: null });
  }
  return { deleted };
}
