import { CONSENT_DOCUMENT, CONSENT_MSG, consentAcceptSchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { ownAccount } from '../../policies/users';
import { consentAnswerSchema, consentDocumentSchema, consentStateSchema } from '../schema';

/*
 * The consent to the processing of personal data: its text is public (registration shows it); a
 * signed-in person of any role reads their own, gives it and withdraws it. Giving and withdrawing
 * are recorded by their commands (commands/consent.ts), which registration shares.
 */

export const getConsentDocument = defineRoute({
  method: 'GET',
  path: '/api/consent/document',
  operationId: 'getConsentDocument',
  summary: 'Текст согласия на обработку персональных данных',
  description: 'Действующая редакция (version); регистрация показывает её со своим флажком.',
  access: 'public',
  ok: { status: 200, description: 'Текст согласия', schema: consentDocumentSchema },
});

export const getConsent = defineRoute({
  method: 'GET',
  path: '/api/consent',
  operationId: 'getConsent',
  summary: 'Своё согласие на обработку персональных данных',
  description: 'required: true, пока нет действующего согласия с текущей редакцией; портал спрашивает его перед работой.',
  access: ownAccount,
  ok: { status: 200, description: 'Своё согласие', schema: consentStateSchema },
});

export const giveConsent = defineRoute({
  method: 'POST',
  path: '/api/consent',
  operationId: 'giveConsent',
  summary: 'Дать согласие на обработку персональных данных',
  description:
    'Записывает, кто, какую редакцию, когда и с какого адреса принял. Повторное согласие с той же редакцией ничего не меняет (200).',
  access: ownAccount,
  body: consentAcceptSchema,
  example: { version: CONSENT_DOCUMENT.version },
  ok: { status: 201, description: 'Согласие записано', schema: consentAnswerSchema },
  alsoOk: { 200: { description: 'Согласие уже действует', schema: consentAnswerSchema } },
  also: { 409: { description: 'Редакция устарела', example: CONSENT_MSG.outdated } },
  audit: ['consent.given'],
});

export const withdrawConsent = defineRoute({
  method: 'POST',
  path: '/api/consent/withdraw',
  operationId: 'withdrawConsent',
  summary: 'Отозвать согласие',
  description: 'Согласие помечается отозванным, и для администратора создаётся запрос на обезличивание данных.',
  access: ownAccount,
  ok: { status: 200, description: 'Согласие отозвано', schema: consentAnswerSchema },
  also: { 409: { description: 'Действующего согласия нет', example: CONSENT_MSG.notGiven } },
  audit: ['consent.withdrawn', 'subjectRequest.filed'],
});
