import type Router from '@koa/router';
import { declaredRouter, subjectRouter, type ServiceContext } from '@portal/service-kit';
import { recordModel } from './models/record';
import { auditRoutes, scopedHistoryRouter } from './routes/audit';
import { internalRouter } from './routes/internal';
import { auditSubjects } from './subjects';

export const auditRouters = (ctx: ServiceContext): Router[] => {
  const records = recordModel(ctx.store);
  return [
    declaredRouter(ctx, auditRoutes(records)),
    scopedHistoryRouter(ctx, records),
    internalRouter(ctx, records),
    subjectRouter(ctx.config.INTERNAL_TOKEN, auditSubjects(records)),
  ];
};
