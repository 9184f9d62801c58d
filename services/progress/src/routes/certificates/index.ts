import Router from '@koa/router';
import {
  CERTIFICATE_MSG,
  STUDY_ROLES,
  certificateNumberSchema,
  entityIdField,
  pagingFields,
  type Certificate,
  type Page,
} from '@portal/contracts';
import {
  idempotent,
  notFound,
  parse,
  readPage,
  requireConsent,
  requireRole,
  type ServiceContext,
  storedBytes,
} from '@portal/service-kit';
import { z } from 'zod';
import { findCertificate, issueCertificate } from '../../commands/certificates';
import type { ProgressDeps } from '../../commands/deps';
import { readsAnswersOf, seesAllResults } from '../../policies/attempts';
import { clientAddress, type PublicLimit } from '../../publicLimit';
import { presentCertificate, presentCertificateCheck } from '../../presenters/certificate';

const issueSchema = z.object({ courseId: entityIdField('courseId') });
const listQuerySchema = z.object({ ...pagingFields(20) });
const LIST_FIELDS = { pdf: 0 } as const;

/** Certificates of completion: issued to the learner who completed a course, checked by anyone. */
export function certificatesRouter(
  service: ServiceContext,
  deps: ProgressDeps & { publicUrl: string; verifyLimit: PublicLimit },
): Router {
  const router = new Router({ prefix: '/api/certificates' });
  const { models, content } = deps;

  /** Public: whether a number is valid, for whom and for what. Limited per address: an answer names a person. */
  router.get('/verify/:number', async (ctx) => {
    await deps.verifyLimit.take(clientAddress(ctx));
    const number = parse(certificateNumberSchema, ctx.params.number);
    ctx.body = presentCertificateCheck(await findCertificate(models, number));
  });

  /** The learner's certificate for a course they completed: issued now (201) or the one issued before (200). */
  router.post('/', service.authenticate, requireRole(...STUDY_ROLES), requireConsent, idempotent(service), async (ctx) => {
    const { courseId } = parse(issueSchema, ctx.request.body);
    const course = await content.getOutline(courseId, ctx.get('authorization'));
    const { certificate, created } = await issueCertificate(deps, ctx.state.user, course);
    ctx.status = created ? 201 : 200;
    ctx.body = presentCertificate(certificate);
  });

  /** The signed-in person's certificates, newest first. */
  router.get('/my', service.authenticate, requireRole(...STUDY_ROLES), async (ctx) => {
    const { page, limit } = parse(listQuerySchema, ctx.query);
    const filter = { userId: ctx.state.user.id };
    const { rows, ...counted } = await readPage(models.certificates, filter, { page, limit }, { issuedAt: -1 }, LIST_FIELDS);
    const body: Page<Certificate> = { data: rows.map(presentCertificate), ...counted, page, limit };
    ctx.body = body;
  });

  /**
   * The PDF: its holder's, and, by the rule for whose results a person reads, the course's authors'
   * and ADMIN's. Anyone else is told it does not exist, so a number leaks nothing.
   */
  router.get('/:number/pdf', service.authenticate, async (ctx) => {
    const number = parse(certificateNumberSchema, ctx.params.number);
    const found = await findCertificate(models, number);
    const { user } = ctx.state;
    const reads =
      found.userId === user.id ||
      (seesAllResults(user.role) && readsAnswersOf(await content.curatedCourses(user), found.courseId));
    if (!reads) throw notFound(CERTIFICATE_MSG.notFound);
    ctx.set('Content-Disposition', `attachment; filename="certificate-${found.number}.pdf"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'application/pdf';
    ctx.body = storedBytes(found.pdf);
  });

  return router;
}
