import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES } from '@portal/contracts';
import { FRONTENDS } from './build';
import { DATA_DIR, ROOT, run, say, which } from './util';

export const HELM_VERSION = 'v3.22.0';
const HELM_MODULE = 'helm.sh/helm/v3';
const CHART = path.join(ROOT, 'deploy/helm/portal');
const CHECKER = path.join(ROOT, 'deploy/helm/check');
/** `helm template` renders for this cluster version (a go-installed helm would otherwise assume 1.20). */
const KUBE_VERSION = '1.31.0';
/** Every Deployment the chart must render: the services, the gateway and each front end. */
export const CHART_COMPONENTS = [...SERVICE_NAMES, 'gateway', ...FRONTENDS];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const goBinary = (): string => {
  const go = which('go', ['/usr/local/go/bin/go']);
  if (!go) throw new Error('Go is needed for the chart checks (https://go.dev/dl/); .ci/run expects it at /usr/local/go');
  return go;
};

const output = (command: string, args: string[], cwd = ROOT): string => {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${result.stderr}`,
    );
  return result.stdout;
};

/** helm from the Go module proxy, in $(go env GOPATH)/bin, at exactly HELM_VERSION. */
export function helmPath(go = goBinary()): string {
  return path.join(output(go, ['env', 'GOPATH']).trim(), 'bin', 'helm');
}

const hasHelm = (go: string, helm: string): boolean =>
  existsSync(helm) &&
  new RegExp(`\\b${HELM_MODULE.replace(/\./g, '\\.')}\\s+${HELM_VERSION}\\b`).test(output(go, ['version', '-m', helm]));

/**
 * Installs helm when missing (compiling it takes 3 CPU-minutes; `.ci/run` does it before the timed
 * test command, so here it is only a fallback for a developer machine).
 */
export function ensureHelm(): string {
  const go = goBinary();
  const helm = helmPath(go);
  if (hasHelm(go, helm)) return helm;
  say(`installing helm ${HELM_VERSION} from the Go module proxy (a few minutes, once)…`);
  const started = Date.now();
  run(go, ['install', `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`]);
  say(`helm installed in ${seconds(Date.now() - started)}`);
  return helm;
}

/**
 * Builds deploy/helm/check and its tests' binary into .data/bin. Go keeps each binary when nothing it
 * is built from changed, so after the first build (before the timed test command) this takes a moment.
 */
export function prepareChartChecker(go = goBinary()): { checker: string; tests: string } {
  const checker = path.join(DATA_DIR, 'bin', 'portal-chart-check');
  run(go, ['build', '-buildvcs=false', '-o', checker, '.'], { cwd: CHECKER });
  const tests = `${checker}.test`;
  run(go, ['test', '-c', '-buildvcs=false', '-o', tests, '.'], { cwd: CHECKER });
  return { checker, tests };
}

/**
 * The chart checks: `helm lint --strict` and `helm template` with the default and the production
 * values, then every rendered object decoded strictly into the k8s.io/api types and the portal's
 * rules (replicas, probes, HPA, PDB, non-root read-only containers, secrets from Secrets, peers that
 * name rendered Services) by deploy/helm/check, whose own tests run first.
 */
export function checkChart(): void {
  const go = goBinary();
  const started = Date.now();
  const helm = ensureHelm();
  const reports = path.join(DATA_DIR, 'reports');
  mkdirSync(reports, { recursive: true });
  const step = (what: string, action: () => void) => {
    const started = Date.now();
    action();
    say(`${what}: ${seconds(Date.now() - started)}`);
  };

  let built = { checker: '', tests: '' };
  step('chart checker built', () => (built = prepareChartChecker(go)));
  // The tests' binary runs in the package's folder, as `go test` runs it.
  step('chart checker tests', () => run(built.tests, ['-test.count=1'], { cwd: CHECKER }));

  const valueSets: Array<[string, string[]]> = [
    ['default', []],
    ['production', ['-f', path.join(CHART, 'values-production.yaml')]],
  ];
  const rendered: string[] = [];
  for (const [name, values] of valueSets) {
    step(`helm lint --strict (${name} values)`, () => run(helm, ['lint', '--strict', CHART, ...values]));
    step(`helm template (${name} values)`, () => {
      const file = path.join(reports, `chart-${name}.yaml`);
      writeFileSync(file, output(helm, ['template', 'portal', CHART, '--kube-version', KUBE_VERSION, ...values]));
      rendered.push(file);
    });
  }
  step('rendered objects validated', () => run(built.checker, ['-components', CHART_COMPONENTS.join(','), ...rendered]));
  say(`chart checks: ${seconds(Date.now() - started)}`);
}
