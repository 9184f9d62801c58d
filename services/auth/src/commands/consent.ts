import type { Model } from 'mongoose';
import { CONSENT_DOCUMENT, CONSENT_MSG, type ConsentRecord, type ConsentState } from '@portal/contracts';
import { conflict, type AuditPublisher, type Principal } from '@portal/service-kit';
import type { ConsentDoc } from '../models/consent';
import type { SubjectRequestDoc } from '../models/subjectRequest';

export interface ConsentDeps {
  consents: Model<ConsentDoc>;
  requests: Model<SubjectRequestDoc>;
  audit: AuditPublisher;
}

/** Where a consent was given from, as 152-FZ asks the operator to keep. */
export interface ConsentOrigin {
  address: string;
  userAgent: string;
}

const presentConsent = (c: ConsentDoc): ConsentRecord => ({
  version: c.version,
  acceptedAt: c.acceptedAt.toISOString(),
  withdrawnAt: c.withdrawnAt ? c.withdrawnAt.toISOString() : null,
});

const latestOf = (consents: Model<ConsentDoc>, userId: string) =>
  consents.findOne({ userId }).sort({ acceptedAt: -1, _id: -1 }).lean<ConsentDoc>();

export async function consentState(consents: Model<ConsentDoc>, userId: string): Promise<ConsentState> {
  const latest = await latestOf(consents, userId);
  return {
    version: CONSENT_DOCUMENT.version,
    title: CONSENT_DOCUMENT.title,
    consent: latest ? presentConsent(latest) : null,
    required: !latest || latest.withdrawnAt !== null || latest.version !== CONSENT_DOCUMENT.version,
  };
}

/**
 * Records a consent to the text the person read. A version other than the current one (a page open
 * since the text changed) is refused, so nobody agrees to a text they did not see. Accepting the
 * consent in force again changes nothing.
 */
export async function acceptConsent(
  { consents, audit }: Pick<ConsentDeps, 'consents' | 'audit'>,
  actor: Principal,
  version: string,
  origin: ConsentOrigin,
  at = new Date(),
): Promise<{ state: ConsentState; created: boolean }> {
  if (version !== CONSENT_DOCUMENT.version) throw conflict(CONSENT_MSG.outdated, 'version');
  const before = await consentState(consents, actor.id);
  if (!before.required) return { state: before, created: false };
  await consents.create({ userId: actor.id, version, acceptedAt: at, ...origin, withdrawnAt: null });
  audit.publish({
    code: 'consent.given',
    data: { version, address: origin.address || null },
    entityId: actor.id,
    actor,
  });
  return { state: await consentState(consents, actor.id), created: true };
}

/**
 * Withdraws the consent in force: it is kept, marked withdrawn, and a request to anonymise the
 * person's data is filed for an ADMIN (one open request per person is enough).
 */
export async function withdrawConsent({ consents, requests, audit }: ConsentDeps, actor: Principal): Promise<ConsentState> {
  const latest = await latestOf(consents, actor.id);
  if (!latest || latest.withdrawnAt) throw conflict(CONSENT_MSG.notGiven);
  await consents.updateOne({ _id: latest._id }, { $set: { withdrawnAt: new Date() } });
  audit.publish({ code: 'consent.withdrawn', data: { version: latest.version }, entityId: actor.id, actor });
  const open = await requests.exists({ userId: actor.id, kind: 'anonymise', status: 'open' });
  if (!open) {
    const request = await requests.create({
      userId: actor.id,
      userName: actor.fullName,
      userEmail: actor.email,
      kind: 'anonymise',
      reason: 'withdrawal',
      filedBy: actor.id,
    });
    audit.publish({
      code: 'subjectRequest.filed',
      data: { kind: 'anonymise', reason: 'withdrawal', email: actor.email, userId: actor.id },
      entityId: String(request._id),
      actor,
    });
  }
  return consentState(consents, actor.id);
}
