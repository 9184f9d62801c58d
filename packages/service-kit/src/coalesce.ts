/**
 * Concurrent askers of one key share one piece of work: the first starts it, the others wait for
 * the same promise, and the key is free again once it has settled (kept or failed).
 */
export function coalesce<T>(pending: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  const running = pending.get(key);
  if (running) return running;
  const work = start().finally(() => pending.delete(key));
  pending.set(key, work);
  return work;
}
