import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_PORTS, SERVICE_NAMES } from '@portal/contracts';
import { baseConfigSchema } from '@portal/service-kit';
import { authConfigSchema } from '@portal/svc-auth/config';
import { auditConfigSchema } from '@portal/svc-audit/config';
import { contentConfigSchema } from '@portal/svc-content/config';
import { gatewayConfigSchema } from '../../../gateway/src/config';
import { FRONTENDS } from './build';
import { ROOT } from './util';

// No Docker engine runs here, so the production-like compose file is checked against the code.
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
}
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;

const acceptedKeys = (name: string): string[] => {
  const schema =
    name === 'auth'
      ? authConfigSchema
      : name === 'audit'
        ? auditConfigSchema
        : name === 'content'
          ? contentConfigSchema
          : baseConfigSchema;
  return [...Object.keys(schema.shape), 'PORT'];
};

it('uses the official mongo:7 and redis:7 images', () => {
  expect(services.mongo.image).toBe('mongo:7');
  expect(services.redis.image).toBe('redis:7');
});

it.each(SERVICE_NAMES)('builds and configures the %s service as the launcher does', (name) => {
  const service = services[name];
  expect(service.build?.args?.TARGET).toBe(`services/${name}`);
  expect(existsSync(path.join(ROOT, service.build!.dockerfile))).toBe(true);
  expect(existsSync(path.join(ROOT, service.build!.args!.TARGET, 'src/index.ts'))).toBe(true);
  expect(service.environment?.PORT).toBe(String(DEFAULT_PORTS[name]));
  expect(service.expose).toEqual([String(DEFAULT_PORTS[name])]);
  for (const key of Object.keys(service.environment ?? {})) expect(acceptedKeys(name)).toContain(key);
  expect(service.environment).toMatchObject({
    MONGO_URL: 'mongodb://mongo:27017',
    REDIS_URL: 'redis://redis:6379',
    HOST: '0.0.0.0',
  });
});

it('points the gateway at every service and every front end container', () => {
  const env = services.gateway.environment!;
  for (const name of SERVICE_NAMES) expect(env[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${DEFAULT_PORTS[name]}`);
  for (const key of Object.keys(env)) expect(Object.keys(gatewayConfigSchema.shape)).toContain(key);
  const upstreams = JSON.parse(env.STATIC_UPSTREAMS) as Record<string, string>;
  expect(Object.keys(upstreams).sort()).toEqual([...FRONTENDS].sort());
  expect(services.gateway.ports).toEqual([`${DEFAULT_PORTS.gateway}:${DEFAULT_PORTS.gateway}`]);
});

it.each(FRONTENDS)('deploys the %s front end as its own static container', (name) => {
  const service = services[name];
  expect(service.build?.args?.APP).toBe(name);
  expect(existsSync(path.join(ROOT, service.build!.dockerfile))).toBe(true);
  expect(existsSync(path.join(ROOT, name, 'webpack.config.ts'))).toBe(true);
});
