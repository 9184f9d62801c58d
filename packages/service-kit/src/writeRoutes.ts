import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Middleware } from './context';
import { parse } from './validate';
import { takeExpectedVersion } from './versions';

/**
 * The commands behind a resource's three writes, each taking `deps` of the request (the actor as
 * data), never the request itself, and how each answer is presented.
 */
export interface ResourceWrites<D, C extends z.ZodType, U extends z.ZodType, Created, Updated> {
  create: { schema: C; run: (deps: D, input: z.output<C>) => Promise<Created>; present: (doc: Created) => unknown };
  update: {
    schema: U;
    run: (deps: D, id: string, input: z.output<U>, expected?: number[]) => Promise<Updated>;
    present: (doc: Updated) => unknown;
  };
  remove: (deps: D, id: string) => Promise<unknown>;
}

/**
 * Mounts a resource's writes as every service answers them, each route in the one order
 * (`guards` authenticate and authorize, then validate, do, present):
 * - POST /: creates from the parsed body, 201 with the new document;
 * - PATCH /:id: updates, based on the versions the request names (If-Match or the body's `version`,
 *   taken out before the body is parsed), 200 with the document as written;
 * - DELETE /:id: deletes, 204.
 */
export function writeRoutes<D, C extends z.ZodType, U extends z.ZodType, Created, Updated>(
  router: Router,
  guards: Middleware[],
  depsOf: (ctx: Context) => D,
  { create, update, remove }: ResourceWrites<D, C, U, Created, Updated>,
): void {
  router.post('/', ...guards, async (ctx) => {
    const input = parse(create.schema, ctx.request.body);
    const doc = await create.run(depsOf(ctx), input);
    ctx.status = 201;
    ctx.body = create.present(doc);
  });

  router.patch('/:id', ...guards, async (ctx) => {
    const expected = takeExpectedVersion(ctx);
    const input = parse(update.schema, ctx.request.body);
    ctx.body = update.present(await update.run(depsOf(ctx), ctx.params.id, input, expected));
  });

  router.delete('/:id', ...guards, async (ctx) => {
    await remove(depsOf(ctx), ctx.params.id);
    ctx.status = 204;
  });
}
