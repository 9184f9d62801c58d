import type { Context } from 'koa';

/**
 * Sends a kept JSON answer: gzipped when the client asks for it and there is a gzipped form (a kept
 * answer is compressed once, not per request; the gateway passes an encoded answer through as it
 * is), plain otherwise.
 */
export async function sendKeptJson(
  ctx: Context,
  plain: () => Buffer | Promise<Buffer>,
  gzipped: (() => Promise<Buffer>) | null,
): Promise<void> {
  ctx.vary('Accept-Encoding');
  if (gzipped && ctx.get('Accept-Encoding') && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.body = await gzipped();
    ctx.set('Content-Encoding', 'gzip');
  } else {
    ctx.body = await plain();
  }
  ctx.type = 'application/json';
}
