import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureSecrets, secretsEnv, SECRET_NAMES } from './secrets';
import { ROOT } from './util';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('generates every secret on the first start, readable by its owner only, and reuses them on later starts', () => {
  const file = path.join(dir, '.data/secrets.json');
  const first = ensureSecrets(file);
  expect(Object.keys(first).sort()).toEqual([...SECRET_NAMES].sort());
  for (const name of SECRET_NAMES) expect(first[name].length).toBeGreaterThanOrEqual(32);
  expect(new Set(Object.values(first)).size).toBe(SECRET_NAMES.length);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const written = readFileSync(file, 'utf8');
  expect(ensureSecrets(file)).toEqual(first);
  expect(readFileSync(file, 'utf8')).toBe(written);
  // Another checkout gets its own.
  expect(ensureSecrets(path.join(dir, 'other/secrets.json')).JWT_SECRET).not.toBe(first.JWT_SECRET);
});

it('completes a file that lacks a secret, keeping the ones it has', () => {
  const file = path.join(dir, 'secrets.json');
  writeFileSync(file, JSON.stringify({ JWT_SECRET: 'kept-secret-kept-secret-kept-secret-0' }));
  const secrets = ensureSecrets(file);
  expect(secrets.JWT_SECRET).toBe('kept-secret-kept-secret-kept-secret-0');
  expect(secrets.INTERNAL_TOKEN).toEqual(expect.any(String));
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
});

it('lets the environment’s own secrets win, and writes no file when it has them all', () => {
  const file = path.join(dir, 'secrets.json');
  const own = { JWT_SECRET: 'j'.repeat(40), INTERNAL_TOKEN: 'i'.repeat(20), ADMIN_REGISTRATION_PASSWORD: 'a'.repeat(12) };
  expect(secretsEnv(own, file)).toEqual(own);
  expect(() => statSync(file)).toThrow();
  expect(secretsEnv({ JWT_SECRET: own.JWT_SECRET }, file).JWT_SECRET).toBe(own.JWT_SECRET);
  expect(secretsEnv({}, file).JWT_SECRET).not.toBe(own.JWT_SECRET);
});

it('leaves no fixed development secret in the repository', () => {
  // The old defaults all began so; a tracked file naming one would be a secret anyone can read.
  const found = spawnSync(
    'git',
    ['grep', '-l', '-I', '-e', 'dev-only-', '--', '*.ts', '*.tsx', '*.yml', '*.json', ':!*.test.ts'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  expect(found.stdout.trim()).toBe('');
});
