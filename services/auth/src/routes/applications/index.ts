import type { Context } from 'koa';
import { MSG, ROLE_LABELS, formatMessage } from '@portal/contracts';
import { implement, type AuditPublisher, type DeclaredHandler } from '@portal/service-kit';
import { decideApplication, listApplications, type ApplicationModels, type Decision } from '../../commands/applications';
import { presentApplication } from '../../presenters/application';
import { presentUser } from '../../presenters/user';
import * as declared from './declarations';

/**
 * Applications for a staff role filed at registration, decided by an ADMIN; each route beside its
 * declaration (`declarations.ts`).
 */
export function applicationRoutes(
  models: ApplicationModels,
  audit: AuditPublisher,
  announce: (id: string) => Promise<void>,
): DeclaredHandler[] {
  const decide = (decision: Decision) => async (ctx: Context, id: string) => {
    const { application, user } = await decideApplication(models, ctx.state.user, id, decision);
    // Approval changes the person's rights: every service reads them afresh on the next request.
    if (decision === 'approve') await announce(String(user._id));
    audit.publish({
      code: decision === 'approve' ? 'application.approved' : 'application.declined',
      data: { email: user.email, role: application.role, userId: String(user._id) },
      entityId: String(application._id),
      actor: ctx.state.user,
    });
    return {
      application: presentApplication(application, user),
      user: presentUser(user),
      message:
        decision === 'approve'
          ? formatMessage(MSG.applicationApproved, { role: ROLE_LABELS[application.role] })
          : MSG.applicationDeclined,
    };
  };
  const approve = decide('approve');
  const decline = decide('decline');

  return [
    implement(declared.listApplications, (_ctx, { query }) => listApplications(models, query)),
    implement(declared.approveApplication, (ctx, { params }) => approve(ctx, params.id)),
    implement(declared.declineApplication, (ctx, { params }) => decline(ctx, params.id)),
  ];
}
