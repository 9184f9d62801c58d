import { LIST_TOTAL_CAP } from '@portal/contracts';

/** What a total costs to count: a model's `countDocuments` with a limit. */
export interface Countable {
  countDocuments(filter: Record<string, unknown>, options: { limit: number }): PromiseLike<number>;
}

/**
 * The total of a list page, counted to LIST_TOTAL_CAP at most: a count reads every document it
 * counts (FerretDB converts each one; MongoDB walks the index), so an exact total of a large
 * directory would cost more than the page. Past the cap the page says `totalExact: false` and the
 * screens show «10 000+»; under it the total is exact and `totalExact` is left out.
 */
export async function cappedTotal(
  model: Countable,
  filter: Record<string, unknown>,
): Promise<{ total: number; totalExact?: false }> {
  const counted = await model.countDocuments(filter, { limit: LIST_TOTAL_CAP + 1 });
  return counted > LIST_TOTAL_CAP ? { total: LIST_TOTAL_CAP, totalExact: false } : { total: counted };
}
