import type Router from '@koa/router';
import type { ServiceContext } from '@portal/service-kit';
import { courseModel } from './models/course';
import { coursesRouter } from './routes/courses';

export const contentRouters = (ctx: ServiceContext): Router[] => [coursesRouter(ctx, courseModel(ctx.store))];
