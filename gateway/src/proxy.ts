import { request, type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';

/**
 * Forwards one API request to a service over the keep-alive agent and streams the answer back.
 * It does what the gateway needs of a proxy and nothing more: http-proxy (under
 * http-proxy-middleware) costs about a third of the gateway's time per request in its generic
 * option handling, event plumbing and header copying.
 */

// Hop-by-hop headers belong to one connection, never to the next one (RFC 9110 section 7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const appendForwarded = (headers: OutgoingHttpHeaders, name: string, value: string) => {
  const before = headers[name];
  // Joined as http-proxy joins them (no space), so services parse what they parsed before.
  headers[name] = before ? `${String(before)},${value}` : value;
};

function upstreamHeaders(req: Request): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const incoming: IncomingHttpHeaders = req.headers;
  for (const name in incoming) if (!HOP_BY_HOP.has(name)) headers[name] = incoming[name];
  // What the client asked, for services that log or build links (http-proxy's `xfwd`).
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  appendForwarded(headers, 'x-forwarded-for', req.socket.remoteAddress ?? '');
  const hostPort = /:(\d+)$/.exec(incoming.host ?? '')?.[1];
  appendForwarded(headers, 'x-forwarded-port', hostPort ?? (encrypted ? '443' : '80'));
  appendForwarded(headers, 'x-forwarded-proto', encrypted ? 'https' : 'http');
  if (incoming.host && !incoming['x-forwarded-host']) headers['x-forwarded-host'] = incoming.host;
  return headers;
}

export interface ForwardOptions {
  agent: Agent;
  timeoutMs: number;
  /** Called when no answer came: `timedOut` tells a slow service from a dead one. */
  onError(err: Error, timedOut: boolean): void;
}

export function forward(req: Request, res: Response, target: URL, { agent, timeoutMs, onError }: ForwardOptions): void {
  let timedOut = false;
  const upstream = request({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: req.method,
    path: req.url,
    headers: upstreamHeaders(req),
    agent,
  });
  upstream.setTimeout(timeoutMs, () => {
    timedOut = true;
    upstream.destroy(new Error('upstream timeout'));
  });
  upstream.on('error', (err) => onError(err, timedOut));
  upstream.on('response', (answer) => {
    res.statusCode = answer.statusCode ?? 502;
    for (const name in answer.headers) {
      const value = answer.headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
    }
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  // The client went away before the answer was complete: stop the service's work on it too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
