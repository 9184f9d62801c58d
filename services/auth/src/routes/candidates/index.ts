import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Model } from 'mongoose';
import { isValidObjectId } from 'mongoose';
import { z } from 'zod';
import { CONSENT_DOCUMENT, CONSENT_MSG, candidateStartSchema, entityIdField, type CandidateStarted } from '@portal/contracts';
import { conflict, op, parse, requireInternal, type ServiceContext, type TokenSigner } from '@portal/service-kit';
import { acceptConsent } from '../../commands/consent';
import { endSessionsOf, openSession } from '../../commands/sessions';
import type { ConsentDoc } from '../../models/consent';
import type { UserDoc } from '../../models/user';
import { hashPassword } from '../../passwords';
import { toPrincipal } from '../../presenters/user';

/** What the progress service sends when a candidate starts a link: who, for which quiz, from where. */
const candidateCreateSchema = candidateStartSchema.omit({ consent: true }).extend({
  scope: z.strictObject({
    linkId: entityIdField('linkId'),
    courseId: entityIdField('courseId'),
    lessonId: entityIdField('lessonId'),
    quizId: entityIdField('quizId'),
  }),
  /** How long the session lives: the time limit and a margin, or a few hours. */
  sessionSeconds: z.number().int().min(60).max(86_400),
  address: z.string().max(100).default(''),
  userAgent: z.string().max(300).default(''),
});

const purgeSchema = z.strictObject({ ids: z.array(z.string().max(40)).max(500) });

interface CandidateDeps {
  users: Model<UserDoc>;
  consents: Model<ConsentDoc>;
  signer: TokenSigner;
  announce: (id: string) => Promise<void>;
}

/**
 * Transient candidates «по ссылке», for the progress service only (never exposed by the gateway): an
 * account of role CANDIDATE whose principal carries the link's scope, its consent record and one
 * session; and their deletion when the retention period ends.
 */
export function candidatesRouter(service: ServiceContext, { users, consents, signer, announce }: CandidateDeps): Router {
  const router = new Router({ prefix: '/internal/candidates' });
  router.use(requireInternal(service.config.INTERNAL_TOKEN));

  router.post('/', async (ctx) => {
    const input = parse(candidateCreateSchema, ctx.request.body);
    // Refused before anything is made: no account is left behind by a consent to an old text.
    if (input.consentVersion !== CONSENT_DOCUMENT.version) throw conflict(CONSENT_MSG.outdated, 'consentVersion');
    const placeholder = `candidate-${randomBytes(9).toString('hex')}@link.invalid`;
    // Nobody signs in with it: a password nobody knows keeps the stored shape of every account.
    const user = await users.create({
      email: placeholder,
      candidateEmail: input.email,
      passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
      fullName: input.fullName,
      role: 'CANDIDATE',
      linkScope: input.scope,
    });
    const principal = toPrincipal(user.toObject<UserDoc>());
    await acceptConsent({ consents, audit: service.audit }, principal, input.consentVersion, {
      address: input.address,
      userAgent: input.userAgent,
    });
    const sid = await openSession(service.store, user._id, input.sessionSeconds);
    const token = await signer.sign({ sub: principal.id, role: 'CANDIDATE', sid });
    const body: CandidateStarted = {
      token,
      user: { id: principal.id, email: input.email, fullName: principal.fullName, role: 'CANDIDATE' },
      courseId: input.scope.courseId,
      lessonId: input.scope.lessonId,
      quizId: input.scope.quizId,
      showResult: false,
    };
    ctx.status = 201;
    ctx.body = body;
  });

  /** Deletes link candidates (only accounts made by a link), their consents and sessions. */
  router.post('/purge', async (ctx) => {
    const { ids } = parse(purgeSchema, ctx.request.body);
    const valid = ids.filter((id) => isValidObjectId(id));
    const found = valid.length
      ? await users
          .find({ _id: op({ $in: valid }), linkScope: op({ $ne: null }) }, { _id: 1 })
          .lean<Array<Pick<UserDoc, '_id'>>>()
      : [];
    const gone = found.map((u) => String(u._id));
    for (const id of gone) await endSessionsOf(service.store, id);
    if (gone.length) {
      await consents.deleteMany({ userId: op({ $in: gone }) });
      await users.deleteMany({ _id: op({ $in: gone }) });
    }
    for (const id of gone) await announce(id);
    ctx.body = { deleted: gone.length };
  });

  return router;
}
