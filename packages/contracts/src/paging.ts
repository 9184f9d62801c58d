import { z } from 'zod';
import './zod-ru';

/**
 * Every list the API answers is one page of it (ARCHITECTURE «Replicas and production»): `page`
 * from 1, `limit` up to a maximum. A limit over the maximum is refused with 400, never clamped, so
 * a client that asks for more than it gets is told so instead of silently missing rows.
 */
export const MAX_PAGE_SIZE = 100;

/** Where a list answered as a bare array (GET /courses keeps the spec's bare array) gives its total. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

export const PAGING_MSG = {
  pageInvalid: 'Номер страницы должен быть целым числом от 1',
  limitInvalid: 'Размер страницы должен быть целым числом от 1 до {max}',
} as const;

/** `page` and `limit` of a list query, with the list's own default and maximum page size. */
export const pagingFields = (defaultLimit: number, maxLimit = MAX_PAGE_SIZE) => {
  const limitMessage = PAGING_MSG.limitInvalid.replace('{max}', String(maxLimit));
  return {
    page: z.coerce
      .number({ error: PAGING_MSG.pageInvalid })
      .int(PAGING_MSG.pageInvalid)
      .min(1, PAGING_MSG.pageInvalid)
      // Far beyond any real list; keeps skip() an ordinary number.
      .max(1_000_000, PAGING_MSG.pageInvalid)
      .default(1),
    limit: z.coerce
      .number({ error: limitMessage })
      .int(limitMessage)
      .min(1, limitMessage)
      .max(maxLimit, limitMessage)
      .default(defaultLimit),
  };
};

/** How many rows a page skips. */
export const pageOffset = ({ page, limit }: { page: number; limit: number }): number => (page - 1) * limit;

/**
 * Where the directories stop counting (users, organizations): past it a page's total is this
 * number with `totalExact: false`, and the screens say «10 000+».
 */
export const LIST_TOTAL_CAP = 10_000;

/** A page of a list with the total that matches (organizations, users, audit, results). */
export interface Page<T> {
  data: T[];
  total: number;
  /** False when the total was counted to LIST_TOTAL_CAP and stopped (more match); absent when exact. */
  totalExact?: boolean;
  page: number;
  limit: number;
}
