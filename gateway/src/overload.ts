import type { NextFunction, Request, Response } from 'express';
import { MSG, SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { serviceFor } from './routes';

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The answer the gateway gives when it refuses a request without reading it (an overload, a body too large). */
export const refuse = (
  req: Request,
  res: Response,
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
) => {
  if (res.headersSent) return void res.end();
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // A body still arriving would sit on the keep-alive socket in front of the client's next request.
  // A request without a body keeps its connection: `complete` is still false while its handler runs
  // (node marks it after the headers are handled), and closing there made every refused GET of a
  // burst open a new connection.
  if (hasBody(req) && !req.complete) res.setHeader('Connection', 'close');
  res.status(statusCode).json({ message, statusCode });
};

/**
 * Bounds the requests in flight toward each service. Past the bound the gateway answers 503 at
 * once with Retry-After: a service already working through `max` requests only gets slower with
 * more, and a queue in front of it ends in 504s for everyone. Counted until the answer is sent or
 * the client goes away, whichever comes first.
 */
export function limitInFlight(max: number) {
  const inFlight = Object.fromEntries(SERVICE_NAMES.map((name) => [name, 0])) as Record<ServiceName, number>;
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const service = serviceFor(req.path);
    if (!service) return next();
    if (inFlight[service] >= max) return refuse(req, res, 503, MSG.overloaded, { 'Retry-After': '1' });
    inFlight[service]++;
    res.once('close', () => inFlight[service]--);
    next();
  };
  return Object.assign(middleware, { inFlight: (service: ServiceName) => inFlight[service] });
}
