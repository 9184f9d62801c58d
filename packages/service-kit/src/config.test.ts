import { z } from 'zod';
import { baseConfigSchema, loadConfig } from './config';

// A service with one more peer than the base (as progress has CONTENT_URL).
const schema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(4999),
  CONTENT_URL: z.string().url().default('http://127.0.0.1:4002'),
});

const secrets = { JWT_SECRET: 'a-real-production-secret-of-32-characters!', INTERNAL_TOKEN: 'a-real-internal-token-value' };
const peers = {
  MONGO_URL: 'mongodb://mongo:27017',
  REDIS_URL: 'redis://redis:6379',
  AUTH_URL: 'http://auth:4001',
  CONTENT_URL: 'http://content:4002',
};

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(schema, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('production configuration', () => {
  it('accepts every peer and secret set explicitly', () => {
    const config = loadConfig(schema, { NODE_ENV: 'production', ...secrets, ...peers });
    expect(config.CONTENT_URL).toBe('http://content:4002');
    expect(config.MONGO_URL).toBe('mongodb://mongo:27017');
  });

  it('names each peer URL left to its loopback default, in one readable list', () => {
    const message = refusal({ NODE_ENV: 'production', ...secrets, AUTH_URL: 'http://auth:4001' });
    expect(message).toContain('Invalid configuration:');
    for (const key of ['MONGO_URL', 'REDIS_URL', 'CONTENT_URL'])
      expect(message).toMatch(new RegExp(`- ${key}: must be set in production \\(the default \\S+127\\.0\\.0\\.1`));
    expect(message).not.toContain('AUTH_URL');
  });

  it('refuses a blank peer URL (compose and .env files leave some blank)', () => {
    expect(refusal({ NODE_ENV: 'production', ...secrets, ...peers, CONTENT_URL: '' })).toContain('CONTENT_URL');
  });

  it('accepts a loopback peer the operator set on purpose (one machine)', () => {
    const config = loadConfig(schema, { NODE_ENV: 'production', ...secrets, ...peers, MONGO_URL: 'mongodb://localhost:27017' });
    expect(config.MONGO_URL).toBe('mongodb://localhost:27017');
  });

  it('accepts a replica set connection string, which lists its members', () => {
    const MONGO_URL =
      'mongodb://user:p%40ss@mongo-0.mongo:27017,mongo-1.mongo:27017,mongo-2.mongo:27017/?replicaSet=rs0&authSource=admin';
    expect(loadConfig(schema, { NODE_ENV: 'production', ...secrets, ...peers, MONGO_URL }).MONGO_URL).toBe(MONGO_URL);
    const srv = 'mongodb+srv://user:pass@cluster0.example.net/?retryWrites=true';
    expect(loadConfig(schema, { NODE_ENV: 'production', ...secrets, ...peers, MONGO_URL: srv }).MONGO_URL).toBe(srv);
    expect(refusal({ NODE_ENV: 'production', ...secrets, ...peers, MONGO_URL: 'http://mongo:27017' })).toMatch(
      /MONGO_URL: .*MongoDB connection string/,
    );
  });

  it("takes a peer's replicas as a comma-separated list", () => {
    const config = loadConfig(schema, {
      NODE_ENV: 'production',
      ...secrets,
      ...peers,
      AUTH_URL: 'http://auth-a:4001,http://auth-b:4001',
    });
    expect(config.AUTH_URL).toEqual(['http://auth-a:4001', 'http://auth-b:4001']);
  });
});

describe('secrets', () => {
  it('refuses to start without JWT_SECRET and INTERNAL_TOKEN, in production and anywhere else', () => {
    for (const NODE_ENV of ['production', 'development', 'test']) {
      expect(() => loadConfig(baseConfigSchema, { NODE_ENV })).toThrow(/JWT_SECRET is not set[\s\S]*INTERNAL_TOKEN is not set/);
    }
    expect(() => loadConfig(baseConfigSchema, { NODE_ENV: 'production', ...secrets, JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET must be at least 32 characters/,
    );
  });

  it('starts with its own secrets', () => {
    const config = loadConfig(baseConfigSchema.extend({ EXTRA: z.string().default('x') }), {
      NODE_ENV: 'production',
      ...secrets,
      ...peers,
    });
    expect(config.JWT_SECRET).toBe(secrets.JWT_SECRET);
    expect(config.INTERNAL_TOKEN).toBe(secrets.INTERNAL_TOKEN);
  });
});

describe('development configuration', () => {
  it('keeps the loopback peers of a laptop', () => {
    const config = loadConfig(schema, secrets);
    expect(config.NODE_ENV).toBe('development');
    expect(config.CONTENT_URL).toBe('http://127.0.0.1:4002');
  });

  it('keeps them in a test run too', () => {
    expect(loadConfig(schema, { NODE_ENV: 'test', ...secrets }).REDIS_URL).toBe('redis://127.0.0.1:6379');
  });
});
