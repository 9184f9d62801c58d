import { MSG, applicationListQuerySchema } from '@portal/contracts';
import { defineRoute } from '@portal/service-kit';
import { decideApplications } from '../../policies/users';
import { applicationDecisionSchema, applicationPageSchema, idParams } from '../schema';

export const listApplications = defineRoute({
  method: 'GET',
  path: '/api/applications',
  operationId: 'listApplications',
  summary: 'Заявки на роли',
  access: decideApplications,
  query: applicationListQuerySchema,
  ok: { status: 200, description: 'Страница заявок', schema: applicationPageSchema },
});

/** Approving or declining: the same answer and refusals, and one audit record. */
const decision = <C extends 'application.approved' | 'application.declined'>(
  verb: 'approve' | 'decline',
  operationId: string,
  summary: string,
  done: string,
  audited: C,
) =>
  defineRoute({
    method: 'POST',
    path: `/api/applications/:id/${verb}`,
    operationId,
    summary,
    access: decideApplications,
    params: idParams('Идентификатор заявки'),
    ok: { status: 200, description: done, schema: applicationDecisionSchema },
    also: {
      404: { description: 'Заявки нет', example: MSG.applicationNotFound },
      409: { description: 'Заявка уже рассмотрена', example: MSG.applicationDecided },
    },
    audit: [audited],
  });

export const approveApplication = decision(
  'approve',
  'approveApplication',
  'Одобрить заявку (назначает роль)',
  'Заявка одобрена',
  'application.approved',
);
export const declineApplication = decision(
  'decline',
  'declineApplication',
  'Отклонить заявку',
  'Заявка отклонена',
  'application.declined',
);
