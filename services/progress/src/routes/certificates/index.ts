import type Router from '@koa/router';
import { CERTIFICATE_MSG, type Certificate, type Page } from '@portal/contracts';
import {
  declaredRouter,
  idempotent,
  implement,
  notFound,
  readPage,
  requireConsent,
  storedBytes,
  type DeclaredHandler,
  type Middleware,
  type ServiceContext,
} from '@portal/service-kit';
import { findCertificate, issueCertificate } from '../../commands/certificates';
import type { ProgressDeps } from '../../commands/deps';
import { readsAnswersOf, seesAllResults } from '../../policies/attempts';
import { clientAddress, type PublicLimit } from '../../publicLimit';
import { presentCertificate, presentCertificateCheck } from '../../presenters/certificate';
import * as declared from './declarations';

const LIST_FIELDS = { pdf: 0 } as const;

type CertificateDeps = ProgressDeps & { publicUrl: string; verifyLimit: PublicLimit };

/** Certificates of completion: issued to the learner who completed a course, checked by anyone. */
export function certificateRoutes(service: ServiceContext, deps: CertificateDeps): DeclaredHandler[] {
  const { models, content } = deps;
  const once = idempotent(service);
  const verifyLimit: Middleware = async (ctx, next) => {
    await deps.verifyLimit.take(clientAddress(ctx));
    await next();
  };

  return [
    implement(
      declared.verifyCertificate,
      async (_ctx, { params }) => presentCertificateCheck(await findCertificate(models, params.number)),
      { limit: verifyLimit },
    ),

    // Consent, then Idempotency-Key, as every create of a learner; the answer is 201 or 200, so the handler sets it.
    implement(declared.issueCertificate, (ctx, { body }) =>
      requireConsent(ctx, () =>
        once(ctx, async () => {
          const course = await content.outlineFor(body.courseId, ctx.state.user);
          const { certificate, created } = await issueCertificate(deps, ctx.state.user, course);
          ctx.status = created ? 201 : 200;
          ctx.body = presentCertificate(certificate);
        }),
      ),
    ),

    implement(declared.listMyCertificates, async (ctx, { query: { page, limit } }) => {
      const filter = { userId: ctx.state.user.id };
      const { rows, ...counted } = await readPage(models.certificates, filter, { page, limit }, { issuedAt: -1 }, LIST_FIELDS);
      const body: Page<Certificate> = { data: rows.map(presentCertificate), ...counted, page, limit };
      return body;
    }),

    /**
     * The PDF: its holder's, and, by the rule for whose results a person reads, the course's authors'
     * and ADMIN's. Anyone else is told it does not exist, so a number leaks nothing.
     */
    implement(declared.downloadCertificate, async (ctx, { params }) => {
      const found = await findCertificate(models, params.number);
      const { user } = ctx.state;
      const reads =
        found.userId === user.id ||
        (seesAllResults(user.role) && readsAnswersOf(await content.curatedCourses(user), found.courseId));
      if (!reads) throw notFound(CERTIFICATE_MSG.notFound);
      ctx.set('Content-Disposition', `attachment; filename="certificate-${found.number}.pdf"`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.type = 'application/pdf';
      ctx.body = storedBytes(found.pdf);
    }),
  ];
}

export const certificatesRouter = (service: ServiceContext, deps: CertificateDeps): Router =>
  declaredRouter(service, certificateRoutes(service, deps));
