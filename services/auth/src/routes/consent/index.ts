import { CONSENT_DOCUMENT, CONSENT_MSG } from '@portal/contracts';
import { implement, type AuditPublisher, type DeclaredHandler } from '@portal/service-kit';
import { acceptConsent, consentState, withdrawConsent, type ConsentDeps } from '../../commands/consent';
import { clientAddress } from '../auth';
import * as declared from './declarations';

/**
 * The consent to the processing of personal data, each route beside its declaration
 * (`declarations.ts`). The text is public (registration shows it); a signed-in person reads their own
 * consent, gives it and withdraws it.
 */
export function consentRoutes(
  deps: Omit<ConsentDeps, 'audit'>,
  audit: AuditPublisher,
  announce: (id: string) => Promise<void>,
): DeclaredHandler[] {
  const full: ConsentDeps = { ...deps, audit };

  return [
    implement(declared.getConsentDocument, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      return CONSENT_DOCUMENT;
    }),

    implement(declared.getConsent, (ctx) => consentState(deps.consents, ctx.state.user.id)),

    implement(declared.giveConsent, async (ctx, { body: { version } }) => {
      const origin = { address: clientAddress(ctx), userAgent: String(ctx.get('user-agent')).slice(0, 300) };
      const { state, created } = await acceptConsent(full, ctx.state.user, version, origin);
      const answer = { ...state, message: CONSENT_MSG.accepted };
      if (created) {
        // Every service's principal says whether the consent is in force: the next request may study.
        await announce(ctx.state.user.id);
        return answer;
      }
      // A consent already in force is answered 200, not the declared 201: written here, nothing returned.
      ctx.status = 200;
      ctx.body = answer;
    }),

    implement(declared.withdrawConsent, async (ctx) => {
      const state = await withdrawConsent(full, ctx.state.user);
      await announce(ctx.state.user.id);
      return { ...state, message: CONSENT_MSG.withdrawn };
    }),
  ];
}
