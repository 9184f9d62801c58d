import { readFileSync } from 'node:fs';
import {
  ACTIVITY,
  cpuCores,
  INFRASTRUCTURE,
  mergeValues,
  podSettings,
  REQUESTS_PER_ACTIVE_MINUTE,
  STORM_REQUESTS_PER_LEARNER_MINUTE,
  type PodSettings,
} from '../../../bench/src/capacityActivity';
import { CAPACITY_DOC, committedDoc } from '../../../bench/src/capacityCommand';
import { capacityModel, type CapacityCosts, type CostsRun } from '../../../bench/src/capacityModel';

/**
 * The capacity model of bench/src/capacityModel.ts (docs/capacity.md): its arithmetic on a small
 * hand-made input, and the committed document against what the committed costs give. The bench is not
 * a jest root, so its pure model is tested from here.
 */

const POD: PodSettings = { cpuRequest: 0.25, cpuLimit: 2, minReplicas: 2, maxReplicas: 12, target: 0.65 };
const CHART = { gateway: POD, content: POD, progress: POD };

/** One run of 10 s: 100 answers, all real; each costs 1 ms in the gateway and 2 in content; `routes` as given. */
function run(overrides: Partial<CostsRun> = {}): CostsRun {
  return {
    store: 'postgresql',
    replicas: 1,
    seconds: 10,
    answered: 100,
    answeredPerSecond: 10,
    realPerSecond: 10,
    loadAverageBefore: 1,
    kinds: [],
    cpuMsPerRequest: { gateway: 1, content: 2, ferretdb: 3, 'load generator': 0.5, machine: 7 },
    storeOperations: 200,
    routes: [{ route: 'GET /api/courses/:id', requests: 100, operations: 200 }],
    ...overrides,
  };
}
const costsOf = (...runs: CostsRun[]): CapacityCosts => ({
  measuredAt: '2026-12-04T00:00:00.000Z',
  quick: false,
  host: { cores: 2, cpu: 'test', memoryGiB: 4, loadAverageAtEnd: 1, note: '' },
  runs,
  floors: [],
  frontEnd: [],
});

/** Peak requests a second the activity model gives for a population. */
const peakRps = (employees: number) =>
  (employees * ACTIVITY.peakActiveShare.value * REQUESTS_PER_ACTIVE_MINUTE.reduce((s, k) => s + k.perMinute, 0)) / 60 +
  ((employees / 1000) * ACTIVITY.stormsPer1000.value * ACTIVITY.stormGroup.value * STORM_REQUESTS_PER_LEARNER_MINUTE) / 60;

/** Store operations a second per employee when every request costs `ops` (the storm's quiz routes absent, so the mean). */
const opsPerEmployee = (ops: number) => (peakRps(1000) / 1000) * ops;

describe('the capacity model', () => {
  it('needs twice the cores of each service for twice the employees, from the measured CPU per request', () => {
    const model = capacityModel(costsOf(run()), CHART, [10_000, 20_000]);

    const [small, large] = model.populations;
    const content = (p: typeof small) => p.services.find((s) => s.service === 'content')!;
    expect(content(small).cores).toBeCloseTo((peakRps(10_000) * 2) / 1000, 9);
    expect(content(large).cores).toBeCloseTo(2 * content(small).cores, 9);
    expect(large.appCores).toBeCloseTo(2 * small.appCores, 9);
    // The store's processes and the load generator are not services.
    expect(small.services.map((s) => s.service).sort()).toEqual(['content', 'gateway']);
  });

  it('charges the deliberately bad requests’ CPU and operations to the real ones', () => {
    const model = capacityModel(costsOf(run({ answered: 200, answeredPerSecond: 20 })), CHART, [10_000]);

    expect(model.populations[0].services.find((s) => s.service === 'content')!.cpuMs).toBeCloseTo(4, 9);
    expect(model.opsPerRequest).toBeCloseTo(2, 9);
  });

  it('sizes pods at the assumed pod and target, never below the chart’s minReplicas', () => {
    const model = capacityModel(costsOf(run()), CHART, [1000, 1_000_000]);

    const [tiny, big] = model.populations;
    expect(tiny.services.every((s) => s.pods === POD.minReplicas)).toBe(true);
    const gateway = big.services.find((s) => s.service === 'gateway')!;
    expect(gateway.pods).toBe(Math.ceil(gateway.cores / (INFRASTRUCTURE.podCpu.value * INFRASTRUCTURE.hpaTarget.value)));
    // With the chart's request of 250m at 65%, the HPA would want more than its 12 replicas.
    expect(gateway.chartPods).toBe(Math.ceil(gateway.cores / (0.25 * 0.65)));
    expect(gateway.chartFits).toBe(false);
    expect(gateway.chartPerPodAtMax).toBeCloseTo(gateway.cores / 12, 9);
  });

  it('keeps one replica set below the threshold and shards the database that passes it', () => {
    const limit = INFRASTRUCTURE.mongoPrimaryOps.value * INFRASTRUCTURE.shardAt.value;
    const progressOnly = run({
      routes: [{ route: 'POST /api/progress/lesson/:lessonId/complete', requests: 100, operations: 200 }],
    });
    const threshold = limit / opsPerEmployee(2);

    const [below, above] = capacityModel(costsOf(progressOnly), CHART, [0.9 * threshold, 1.1 * threshold]).populations;

    expect(below.storeOpsRps).toBeLessThan(limit);
    expect(below.shardVerdict).toBe('one replica set');
    expect(above.storeOpsRps).toBeGreaterThan(limit);
    expect(above.shardVerdict).toBe('shard');
    expect(above.shardDatabases).toEqual(['progress']);
  });

  it('splits the databases onto replica sets of their own when none passes the threshold alone', () => {
    const limit = INFRASTRUCTURE.mongoPrimaryOps.value * INFRASTRUCTURE.shardAt.value;
    const spread = run({
      routes: [
        { route: 'GET /api/courses/:id', requests: 50, operations: 100 },
        { route: 'GET /api/organizations', requests: 50, operations: 100 },
      ],
    });

    const [p] = capacityModel(costsOf(spread), CHART, [(1.5 * limit) / opsPerEmployee(2)]).populations;

    expect(p.storeOpsRps).toBeCloseTo(1.5 * limit, 6);
    expect(p.shardVerdict).toBe('a replica set per database');
    // The portal's operations split as the measured routes did; the storms' go to progress.
    expect(p.storeOpsByDatabase.content).toBeCloseTo(p.portalRps * 2 * 0.5, 6);
    expect(p.storeOpsByDatabase.crm).toBeCloseTo(p.portalRps * 2 * 0.5, 6);
    expect(p.storeOpsByDatabase.progress).toBeCloseTo(p.stormRps * 2, 6);
  });

  it('predicts a second run’s throughput exactly when its requests cost what the reference’s did', () => {
    const second = run({ replicas: 2, answered: 300, answeredPerSecond: 30, realPerSecond: 30, seconds: 10 });

    const model = capacityModel(costsOf(run(), second), CHART, [10_000]);

    expect(model.checks.replicas).toHaveLength(1);
    expect(model.checks.replicas[0].predictedRps).toBeCloseTo(30, 9);
    expect(model.checks.replicas[0].error).toBeCloseTo(0, 9);
  });

  it('reads the chart’s CPU quantities and merges production values over the defaults', () => {
    const values = mergeValues(
      {
        defaults: {
          resources: { requests: { cpu: '100m' }, limits: { cpu: '1' } },
          autoscaling: { minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70 },
        },
        gateway: {},
        services: { content: { resources: { requests: { cpu: '200m' } } } },
      },
      { defaults: { autoscaling: { maxReplicas: 12 } } },
    );

    expect(cpuCores('250m')).toBe(0.25);
    expect(podSettings(values).content).toEqual({ cpuRequest: 0.2, cpuLimit: 1, minReplicas: 2, maxReplicas: 12, target: 0.7 });
    expect(podSettings(values).gateway.cpuRequest).toBe(0.1);
  });

  it('committed docs/capacity.md is what `npm run capacity-model` makes of bench/capacity-costs.json', () => {
    expect(readFileSync(CAPACITY_DOC, 'utf8')).toBe(committedDoc());
  });
});
