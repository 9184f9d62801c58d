import Router from '@koa/router';
import { MSG, ROLE_LABELS, applicationListQuerySchema, formatMessage } from '@portal/contracts';
import { parse, requireRole, type ServiceContext } from '@portal/service-kit';
import { decideApplication, listApplications, type ApplicationModels, type Decision } from '../../commands/applications';
import { APPLICATION_ROLES } from '../../policies/users';
import { presentApplication } from '../../presenters/application';
import { presentUser } from '../../presenters/user';

/** /api/applications: applications for a staff role filed at registration, decided by an ADMIN. */
export function applicationsRouter(
  service: ServiceContext,
  models: ApplicationModels,
  announce: (id: string) => Promise<void>,
): Router {
  const router = new Router({ prefix: '/api/applications' });
  const { audit, authenticate } = service;

  router.get('/', authenticate, requireRole(...APPLICATION_ROLES), async (ctx) => {
    ctx.body = await listApplications(models, parse(applicationListQuerySchema, ctx.query));
  });

  const decide = (decision: Decision) =>
    router.post(`/:id/${decision}`, authenticate, requireRole(...APPLICATION_ROLES), async (ctx) => {
      const { application, user } = await decideApplication(models, ctx.state.user, ctx.params.id, decision);
      // Approval changes the person's rights: every service reads them afresh on the next request.
      if (decision === 'approve') await announce(String(user._id));
      audit.publish({
        action: 'update',
        entity: 'application',
        entityId: String(application._id),
        details:
          decision === 'approve'
            ? `Одобрена заявка ${user.email} на роль ${application.role}`
            : `Отклонена заявка ${user.email} на роль ${application.role}`,
        actor: ctx.state.user,
      });
      ctx.body = {
        application: presentApplication(application, user),
        user: presentUser(user),
        message:
          decision === 'approve'
            ? formatMessage(MSG.applicationApproved, { role: ROLE_LABELS[application.role] })
            : MSG.applicationDeclined,
      };
    });
  decide('approve');
  decide('decline');

  return router;
}
