import pino from 'pino';
import { createGateway } from './app';
import { gatewayConfigSchema } from './config';
import { proxiedDirectly, serviceFor } from './routes';

/** A layer of Express's router: a route (its paths) or a router of its own (its layers). */
interface Layer {
  route?: { path: string | string[] };
  handle?: { stack?: Layer[] };
}

const pathsOf = (stack: Layer[]): string[] =>
  stack.flatMap((layer) => (layer.route ? [layer.route.path].flat() : layer.handle?.stack ? pathsOf(layer.handle.stack) : []));

describe('which API requests go straight to the proxy', () => {
  it('never one the gateway answers itself: every route of its own is under a prefix marked gatewayRoutes, or under none', () => {
    const { app, close } = createGateway(
      gatewayConfigSchema.parse({ INTERNAL_TOKEN: process.env.INTERNAL_TOKEN }),
      pino({ level: 'silent' }),
    );
    close();
    const own = pathsOf((app as unknown as { router: { stack: Layer[] } }).router.stack).filter((p) => p.startsWith('/api/'));
    // The routes this test is about: the dashboard's, the curator's history, the privacy requests, the API's description.
    expect(own).toEqual(expect.arrayContaining(['/api/dashboard/stats', '/api/audit', '/api/subject-requests/:id/export']));
    const sample = (path: string) => path.replace(/:[^/]+/g, 'x');
    expect(own.filter((path) => proxiedDirectly(sample(path)))).toEqual([]);
  });

  it('every other path a service answers under /api does, and nothing outside /api', () => {
    expect(proxiedDirectly('/api/courses')).toBe(true);
    expect(proxiedDirectly('/api/courses/6756f0c1a2b3c4d5e6f71000/outline')).toBe(true);
    expect(proxiedDirectly('/api/attempts/x/submit')).toBe(true);
    expect(proxiedDirectly('/api/audit/export')).toBe(false);
    expect(proxiedDirectly('/api/subject-requests')).toBe(false);
    expect(proxiedDirectly('/api/health')).toBe(false);
    expect(proxiedDirectly('/api/coursesx')).toBe(false);
    // A SCORM package's files carry their own headers (the content service's sandbox).
    expect(serviceFor('/scorm/files/x')).toBe('content');
    expect(proxiedDirectly('/scorm/files/x')).toBe(false);
  });
});
