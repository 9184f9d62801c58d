/**
 * Gathers items that arrive close together into one write, so a store that commits each write on
 * its own (FerretDB's SQLite backend: about 3 ms a commit) stores many events per commit.
 *
 * At most `maxInFlight` writes run at once; items arriving meanwhile wait in the buffer and go out
 * together when a write finishes. Under light load an item goes out on the next turn of the event
 * loop, so batching adds no timer wait. Each `add` settles with its own item's outcome: a write that
 * fails for one item fails only that item's promise.
 */
export type BatchWrite<T> = (items: T[]) => Promise<Array<Error | null>>;

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class MicroBatcher<T> {
  private buffer: Array<Pending<T>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: BatchWrite<T>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.buffer.push({ item, resolve, reject });
      if (this.buffer.length >= this.options.maxBatch) this.flush();
      else if (!this.scheduled) {
        // Items added in the same turn (a worker taking several jobs at once) share one write.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    while (this.buffer.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.buffer.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async run(batch: Array<Pending<T>>): Promise<void> {
    let outcomes: Array<Error | null>;
    try {
      outcomes = await this.write(batch.map((p) => p.item));
    } catch (err) {
      const failure = err instanceof Error ? err : new Error(String(err));
      outcomes = batch.map(() => failure);
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome) p.reject(outcome);
      else p.resolve();
    });
  }
}
