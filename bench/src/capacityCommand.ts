import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { mergeValues, num, podSettings, type PodSettings, type Values } from './capacityActivity';
import { renderCapacityDoc } from './capacityDoc';
import { capacityModel, realFactor, referenceRun, runCpu, type CapacityCosts } from './capacityModel';

/* ------------------------------------------------------------------------------ the command */

export const ROOT = path.resolve(__dirname, '../..');
export const COMMITTED_COSTS = path.join(ROOT, 'bench/capacity-costs.json');
export const CAPACITY_DOC = path.join(ROOT, 'docs/capacity.md');
export const FRESH_COSTS = path.join(ROOT, '.data/reports/capacity-costs.json');
export const CHART = path.join(ROOT, 'deploy/helm/portal');

/** The chart's production settings: values.yaml with values-production.yaml over it. */
export function readChart(): Record<string, PodSettings> {
  const read = (file: string) => parseYaml(readFileSync(path.join(CHART, file), 'utf8')) as Values;
  return podSettings(mergeValues(read('values.yaml'), read('values-production.yaml')));
}

/** The document the committed costs give. */
export function committedDoc(): string {
  const costs = JSON.parse(readFileSync(COMMITTED_COSTS, 'utf8')) as CapacityCosts;
  return renderCapacityDoc(capacityModel(costs, readChart()));
}

/**
 * `npm run capacity-model [costs.json]`: takes the costs just measured (the argument, or
 * .data/reports/capacity-costs.json when it is there) as the committed copy, then writes
 * docs/capacity.md from the committed copy. `--committed` leaves the copy as it is.
 */
export function main(args: string[]) {
  const committedOnly = args.includes('--committed');
  const given = args.find((a) => !a.startsWith('--'));
  // npm runs a workspace's script in its folder; a path is meant from where the command was typed.
  const fresh = committedOnly
    ? null
    : given
      ? path.resolve(process.env.INIT_CWD ?? process.cwd(), given)
      : existsSync(FRESH_COSTS)
        ? FRESH_COSTS
        : null;
  if (fresh) {
    const costs = JSON.parse(readFileSync(fresh, 'utf8')) as CapacityCosts;
    referenceRun(costs); // refuses costs without a mixed-load run before anything is overwritten
    if (existsSync(COMMITTED_COSTS)) {
      const before = referenceRun(JSON.parse(readFileSync(COMMITTED_COSTS, 'utf8')) as CapacityCosts);
      const now = referenceRun(costs);
      console.log(
        `CPU ms per real request of the portal and store: ${num(runCpu(before) * realFactor(before), 2)} (committed) → ${num(runCpu(now) * realFactor(now), 2)}`,
      );
    }
    writeFileSync(COMMITTED_COSTS, `${JSON.stringify(costs, null, 2)}\n`);
    console.log(`${path.relative(process.cwd(), fresh)} → ${path.relative(process.cwd(), COMMITTED_COSTS)}`);
  }
  writeFileSync(CAPACITY_DOC, committedDoc());
  console.log(`written ${path.relative(process.cwd(), CAPACITY_DOC)}`);
}

if (require.main === module) main(process.argv.slice(2));
