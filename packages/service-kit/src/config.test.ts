import { z } from 'zod';
import { baseConfigSchema, loadConfig } from './config';

const secrets = { JWT_SECRET: 'j'.repeat(40), INTERNAL_TOKEN: 'i'.repeat(20) };

it('refuses to start without JWT_SECRET and INTERNAL_TOKEN, in production and anywhere else', () => {
  for (const NODE_ENV of ['production', 'development', 'test']) {
    expect(() => loadConfig(baseConfigSchema, { NODE_ENV })).toThrow(/JWT_SECRET is not set[\s\S]*INTERNAL_TOKEN is not set/);
  }
  expect(() => loadConfig(baseConfigSchema, { NODE_ENV: 'production', ...secrets, JWT_SECRET: 'short' })).toThrow(
    /JWT_SECRET must be at least 32 characters/,
  );
});

it('starts with its own secrets', () => {
  const config = loadConfig(baseConfigSchema.extend({ EXTRA: z.string().default('x') }), { NODE_ENV: 'production', ...secrets });
  expect(config.JWT_SECRET).toBe(secrets.JWT_SECRET);
  expect(config.INTERNAL_TOKEN).toBe(secrets.INTERNAL_TOKEN);
});
