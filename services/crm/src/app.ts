import type Router from '@koa/router';
import type { ServiceContext } from '@portal/service-kit';
import { organizationModel } from './models/organization';
import { organizationsRouter } from './routes/organizations';

export const crmRouters = (ctx: ServiceContext): Router[] => [organizationsRouter(ctx, organizationModel(ctx.store))];
