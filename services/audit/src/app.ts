import type Router from '@koa/router';
import type { ServiceContext } from '@portal/service-kit';
import { recordModel } from './models/record';
import { auditRouter } from './routes/audit';

export const auditRouters = (ctx: ServiceContext): Router[] => [auditRouter(ctx, recordModel(ctx.store))];
