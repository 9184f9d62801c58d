import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_PORTS, SERVICE_NAMES, type ServiceName } from '@portal/contracts';
import { loadAuthConfig } from '@portal/svc-auth/config';
import { loadAuditConfig } from '@portal/svc-audit/config';
import { loadContentConfig } from '@portal/svc-content/config';
import { loadCrmConfig } from '@portal/svc-crm/config';
import { loadProgressConfig } from '@portal/svc-progress/config';
import { parseGatewayConfig } from '../../../gateway/src/config';
import { FRONTENDS } from './build';
import { helmPath } from './chart';
import { ROOT } from './util';

// The chart's own structure is checked by deploy/helm/check (the `chart` stage of npm test); this
// test loads each process's configuration with exactly the environment the chart gives its pods,
// as compose.test.ts does for docker-compose.yml.
const CHART = path.join(ROOT, 'deploy/helm/portal');
const helm = helmPath();

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Container {
  name: string;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  ports: Array<{ containerPort: number }>;
}
interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: { template?: { spec: { containers: Container[] } }; ports?: Array<{ port: number }> };
}

/** The Secrets an operator creates (docs/deploying.md), key by key. */
const SECRETS: Record<string, Record<string, string>> = {
  'portal-secrets': {
    JWT_SECRET: 'an-operator-secret-of-at-least-32-characters',
    INTERNAL_TOKEN: 'an-operator-internal-token',
    ADMIN_REGISTRATION_PASSWORD: 'an-operator-admin-password',
  },
  'portal-mongodb': { MONGO_URL: 'mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017,mongo-2.mongo:27017/?replicaSet=rs0' },
  'portal-redis': { REDIS_URL: 'redis://:password@redis-master:6379' },
};

const render = (...args: string[]): K8sObject[] => {
  if (!existsSync(helm))
    throw new Error(`no helm at ${helm}: run \`tsx packages/devstack/src/cli.ts chart-tools\` (.ci/run does)`);
  const result = spawnSync(helm, ['template', 'portal', CHART, '--kube-version', '1.31.0', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
};

/** A container's environment as the kubelet builds it: ConfigMaps first, then its own entries. */
const environmentOf = (objects: K8sObject[], component: string): Record<string, string> => {
  const deployment = objects.find(
    (o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === component,
  );
  const container = deployment!.spec!.template!.spec.containers[0];
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef?.name);
    Object.assign(env, map!.data);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    const value = ref ? SECRETS[ref.name]?.[ref.key] : entry.value;
    if (value === undefined && !ref?.optional)
      throw new Error(`${component}: ${entry.name} from a Secret the operator does not have`);
    if (value !== undefined) env[entry.name] = value;
  }
  return env;
};

const LOADERS: Record<ServiceName, (env: Record<string, string>) => { NODE_ENV: string; PORT: number; MONGO_URL: string }> = {
  auth: loadAuthConfig,
  content: loadContentConfig,
  progress: loadProgressConfig,
  crm: loadCrmConfig,
  audit: loadAuditConfig,
};

describe.each([
  ['default', []],
  ['production', ['-f', path.join(CHART, 'values-production.yaml')]],
])('the chart with the %s values', (_name, args) => {
  const objects = render(...args);
  const servicePorts = new Map(
    objects.filter((o) => o.kind === 'Service').map((o) => [o.metadata.name, o.spec!.ports!.map((p) => String(p.port))]),
  );
  const expectPeersAreServices = (env: Record<string, string>) => {
    for (const [key, value] of Object.entries(env)) {
      if (!key.endsWith('_URL') || !value || key === 'MONGO_URL' || key === 'REDIS_URL') continue;
      const url = new URL(value);
      expect({ key, ports: servicePorts.get(url.hostname) }).toEqual({ key, ports: [url.port] });
    }
  };

  it.each(SERVICE_NAMES)('starts %s in production with exactly the environment of its pods', (name) => {
    const env = environmentOf(objects, name);
    const config = LOADERS[name](env); // throws the readable list on anything missing or a loopback default
    expect(config).toMatchObject({ NODE_ENV: 'production', PORT: DEFAULT_PORTS[name] });
    expect(config.MONGO_URL).toContain('replicaSet=');
    expectPeersAreServices(env);
  });

  it('starts the gateway in production, pointed at every service and front end', () => {
    const env = environmentOf(objects, 'gateway');
    // TLS ends at the Ingress, the one proxy the gateway believes: the browser's https origin is its own.
    expect(parseGatewayConfig(env)).toMatchObject({
      ok: true,
      config: { NODE_ENV: 'production', PORT: DEFAULT_PORTS.gateway, TRUST_PROXY: 1 },
    });
    expectPeersAreServices(env);
    const upstreams = JSON.parse(env.STATIC_UPSTREAMS) as Record<string, string>;
    expect(Object.keys(upstreams).sort()).toEqual([...FRONTENDS].sort());
    for (const url of Object.values(upstreams)) expect(servicePorts.get(new URL(url).hostname)).toEqual([new URL(url).port]);
  });

  it('writes no secret value: every secret comes from a named Secret', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const text = JSON.stringify(objects);
    for (const values of Object.values(SECRETS)) for (const value of Object.values(values)) expect(text).not.toContain(value);
  });
});

it('refuses to render without the names of the Secrets', () => {
  expect(() => render('--set', 'mongodb.existingSecret=')).toThrow(/mongodb.existingSecret: name a Secret/);
  expect(() => render('--set', 'secrets.existingSecret=')).toThrow(/secrets.existingSecret: name a Secret/);
});

it('refuses a misspelt value and a single replica (values.schema.json)', () => {
  expect(() => render('--set', 'servces.auth.port=4001')).toThrow(/additional properties 'servces' not allowed/);
  expect(() => render('--set', 'services.content.autoscaling.minReplicas=1')).toThrow(
    /autoscaling\/minReplicas': minimum: got 1, want 2/,
  );
});

it('sends mail from every service when the operator gives SMTP_URL, with the public address in the links', () => {
  const objects = render(
    '--set',
    'config.publicUrl=https://learn.example.ru',
    '--set',
    'config.mailFrom=Портал <noreply@example.ru>',
  );
  const withSmtp = { ...SECRETS['portal-secrets'], SMTP_URL: 'smtps://mailer:secret@smtp.example.ru:465' };
  const saved = SECRETS['portal-secrets'];
  SECRETS['portal-secrets'] = withSmtp;
  try {
    for (const name of SERVICE_NAMES) {
      const config = LOADERS[name](environmentOf(objects, name)) as unknown as Record<string, unknown>;
      expect({ name, ...pick(config, 'SMTP_URL', 'PUBLIC_URL', 'MAIL_FROM') }).toEqual({
        name,
        SMTP_URL: withSmtp.SMTP_URL,
        PUBLIC_URL: 'https://learn.example.ru',
        MAIL_FROM: 'Портал <noreply@example.ru>',
      });
    }
  } finally {
    SECRETS['portal-secrets'] = saved;
  }
  // Without the key, no mail: the Secret's SMTP_URL is optional.
  expect(LOADERS.auth(environmentOf(render(), 'auth'))).not.toHaveProperty('SMTP_URL', expect.anything());
});

it("names the portal, a certificate's issuer and its signatory as the operator sets them, and the defaults otherwise", () => {
  const objects = render(
    '--set',
    'config.siteName=Портал «Северной верфи»',
    '--set',
    'config.certificateIssuer=АО «Северная верфь»',
    '--set',
    'config.certificateSignatory=Директор Е. В. Орлова',
  );
  for (const name of SERVICE_NAMES) {
    const config = LOADERS[name](environmentOf(objects, name)) as unknown as Record<string, unknown>;
    expect(config.SITE_NAME).toBe('Портал «Северной верфи»');
  }
  const progress = LOADERS.progress(environmentOf(objects, 'progress')) as unknown as Record<string, unknown>;
  expect(pick(progress, 'CERTIFICATE_ISSUER', 'CERTIFICATE_SIGNATORY')).toEqual({
    CERTIFICATE_ISSUER: 'АО «Северная верфь»',
    CERTIFICATE_SIGNATORY: 'Директор Е. В. Орлова',
  });
  const defaults = LOADERS.progress(environmentOf(render(), 'progress')) as unknown as Record<string, unknown>;
  expect(pick(defaults, 'SITE_NAME', 'CERTIFICATE_ISSUER', 'CERTIFICATE_SIGNATORY')).toEqual({
    SITE_NAME: 'Учебный портал',
    CERTIFICATE_ISSUER: undefined,
    CERTIFICATE_SIGNATORY: 'Руководитель программы обучения',
  });
});

const pick = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

it('puts file bytes in the S3 bucket the operator names, its keys from their Secret; GridFS otherwise', () => {
  SECRETS['portal-s3'] = { S3_ACCESS_KEY_ID: 'an-operator-access-key', S3_SECRET_ACCESS_KEY: 'an-operator-secret-key' };
  try {
    const settings = [
      'storage.backend=s3',
      'storage.s3.endpoint=https://storage.yandexcloud.net',
      'storage.s3.region=ru-central1',
      'storage.s3.bucket=portal-files',
      'storage.s3.existingSecret=portal-s3',
    ];
    const objects = render(...settings.flatMap((v) => ['--set', v]));
    const content = LOADERS.content(environmentOf(objects, 'content')) as unknown as Record<string, unknown>;
    expect(
      pick(content, 'STORAGE_BACKEND', 'S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'),
    ).toEqual({
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: 'https://storage.yandexcloud.net',
      S3_REGION: 'ru-central1',
      S3_BUCKET: 'portal-files',
      S3_ACCESS_KEY_ID: 'an-operator-access-key',
      S3_SECRET_ACCESS_KEY: 'an-operator-secret-key',
    });
    expect(JSON.stringify(objects)).not.toContain('an-operator-secret-key');
  } finally {
    delete SECRETS['portal-s3'];
  }
  expect(LOADERS.content(environmentOf(render(), 'content'))).toMatchObject({ STORAGE_BACKEND: 'gridfs' });
  expect(() => render('--set', 'storage.backend=s3')).toThrow(/storage\/s3\/bucket/);
});

it('signs people in through the company provider the operator names, its client secret from the portal Secret', () => {
  const settings = [
    'services.auth.env.OIDC_ISSUER=https://sso.corp.example.ru/realms/staff',
    'services.auth.env.OIDC_CLIENT_ID=learning-portal',
    'services.auth.env.LOCAL_LOGIN=admins',
  ];
  const withSecret = { ...SECRETS['portal-secrets'], OIDC_CLIENT_SECRET: 'an-operator-client-secret' };
  const saved = SECRETS['portal-secrets'];
  SECRETS['portal-secrets'] = withSecret;
  try {
    const objects = render(...settings.flatMap((v) => ['--set', v]));
    const auth = LOADERS.auth(environmentOf(objects, 'auth')) as unknown as Record<string, unknown>;
    expect(pick(auth, 'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'LOCAL_LOGIN')).toEqual({
      OIDC_ISSUER: 'https://sso.corp.example.ru/realms/staff',
      OIDC_CLIENT_ID: 'learning-portal',
      OIDC_CLIENT_SECRET: 'an-operator-client-secret',
      LOCAL_LOGIN: 'admins',
    });
    expect(JSON.stringify(objects)).not.toContain('an-operator-client-secret');
  } finally {
    SECRETS['portal-secrets'] = saved;
  }
});
