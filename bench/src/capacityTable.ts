import type { StoreKind } from './capacity';
import { BROWSER, type BenchPortal, type Measured } from './portal';
import { QUICK, round } from './harness';

/* The capacity bench's table of figures per store, and what its figures share. */

/** Seconds per figure: the full run's, or a few seconds with BENCH_QUICK=1 (it works; not a measurement). */
export const seconds = (full: number) => (QUICK ? Math.min(full, 5) : full);

export interface Cell {
  value: string;
  met?: boolean;
  note?: string;
}
export interface CapacityRow {
  figure: string;
  target: string;
  cells: Partial<Record<StoreKind, Cell>>;
}

export class Table {
  readonly rows: CapacityRow[] = [];
  constructor(private readonly store: StoreKind) {}
  add(figure: string, target: string, cell: Cell) {
    let row = this.rows.find((r) => r.figure === figure);
    if (!row) this.rows.push((row = { figure, target, cells: {} }));
    row.cells[this.store] = cell;
  }
}

export const ms = (n: number) => (Number.isFinite(n) ? `${round(n)} ms` : 'no answer');
export const answered = (r: Measured) =>
  `${r.total} answers, ${round(r.rps, 0)} req/s, statuses ${JSON.stringify(r.statuses)}, errors/timeouts ${r.errors}`;

export const learnerHeaders = (portal: BenchPortal) => ({ authorization: `Bearer ${portal.learners[0]}`, ...BROWSER });
