import Router from '@koa/router';
import { CONSENT_DOCUMENT, CONSENT_MSG, consentAcceptSchema } from '@portal/contracts';
import { parse, type ServiceContext } from '@portal/service-kit';
import { acceptConsent, consentState, withdrawConsent, type ConsentDeps } from '../../commands/consent';
import { clientAddress } from '../auth';

/**
 * /api/consent: the consent to the processing of personal data. The text is public (registration
 * shows it); a signed-in person reads their own consent, gives it and withdraws it.
 */
export function consentRouter(
  service: ServiceContext,
  deps: Omit<ConsentDeps, 'audit'>,
  announce: (id: string) => Promise<void>,
): Router {
  const router = new Router({ prefix: '/api/consent' });
  const { authenticate, audit } = service;
  const full: ConsentDeps = { ...deps, audit };

  router.get('/document', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = CONSENT_DOCUMENT;
  });

  router.get('/', authenticate, async (ctx) => {
    ctx.body = await consentState(deps.consents, ctx.state.user.id);
  });

  router.post('/', authenticate, async (ctx) => {
    const { version } = parse(consentAcceptSchema, ctx.request.body);
    const origin = { address: clientAddress(ctx), userAgent: String(ctx.get('user-agent')).slice(0, 300) };
    const { state, created } = await acceptConsent(full, ctx.state.user, version, origin);
    // Every service's principal says whether the consent is in force: the next request may study.
    if (created) await announce(ctx.state.user.id);
    ctx.status = created ? 201 : 200;
    ctx.body = { ...state, message: CONSENT_MSG.accepted };
  });

  router.post('/withdraw', authenticate, async (ctx) => {
    const state = await withdrawConsent(full, ctx.state.user);
    await announce(ctx.state.user.id);
    ctx.body = { ...state, message: CONSENT_MSG.withdrawn };
  });

  return router;
}
