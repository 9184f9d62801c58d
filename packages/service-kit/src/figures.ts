import type { PeriodChange } from '@portal/contracts';
import { op } from './mongo';
import { cappedTotal, type Countable } from './totals';

const DAY = 86_400_000;

/**
 * One figure of the dashboard: how many records a filter selects, and how many of them arrived in
 * the last 30 days and in the 30 before. Each of the three counts stops at LIST_TOTAL_CAP (see
 * cappedTotal), so a figure costs at most three bounded counts whatever the collection holds.
 */
export interface CountedFigure {
  count: number;
  /** False when the count stopped at the cap: there are more (the dashboard says «10 000+»). */
  exact: boolean;
  /** `exact: false` when a window was counted to LIST_TOTAL_CAP and stopped. */
  change: PeriodChange;
}

/**
 * Counts one figure: the records `filter` selects, and those of them whose date `field` falls in
 * the last 30 days and in the 30 before `now`.
 */
export async function countFigure(
  model: Countable,
  filter: Record<string, unknown>,
  field: string,
  now = Date.now(),
): Promise<CountedFigure> {
  const [all, last30, prev30] = await Promise.all([
    cappedTotal(model, filter),
    cappedTotal(model, { ...filter, [field]: op({ $gte: new Date(now - 30 * DAY) }) }),
    cappedTotal(model, { ...filter, [field]: op({ $gte: new Date(now - 60 * DAY), $lt: new Date(now - 30 * DAY) }) }),
  ]);
  const changeExact = last30.totalExact === undefined && prev30.totalExact === undefined;
  return {
    count: all.total,
    exact: all.totalExact === undefined,
    change: { last30: last30.total, prev30: prev30.total, ...(changeExact ? {} : { exact: false as const }) },
  };
}

/**
 * The `lowerBounds` of an internal stats answer (contracts' FigureBounds): the names of the figures
 * counted to the cap (each is then «at least»), left out when every figure is exact, so an answer of
 * exact figures is what it always was.
 */
export function lowerBoundsOf<K extends string>(figures: Record<K, Pick<CountedFigure, 'exact'>>): { lowerBounds?: K[] } {
  const capped = (Object.keys(figures) as K[]).filter((name) => !figures[name].exact);
  return capped.length ? { lowerBounds: capped } : {};
}
