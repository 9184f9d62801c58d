import { CONSENT_MSG } from '@portal/contracts';
import type { Refusal } from '@portal/service-kit';

/** A learning route refused without the consent to the processing of personal data in force (the kit's `requireConsent`). */
export const noConsent: Refusal = {
  description: 'Роли не хватает прав, или нет действующего согласия на обработку персональных данных',
  example: CONSENT_MSG.neededToStudy,
};
