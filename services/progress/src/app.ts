import type Router from '@koa/router';
import type { ServiceContext } from '@portal/service-kit';
import { completionModel } from './models/completion';
import { progressRouter } from './routes/progress';

export const progressRouters = (ctx: ServiceContext): Router[] => [progressRouter(ctx, completionModel(ctx.store))];
