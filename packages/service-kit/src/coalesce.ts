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

/**
 * One value per owner (a model, a set of models: one per process and database), made on first use
 * and gone with its owner: the per-process caches a module keeps beside the data they read.
 */
export function onePer<K extends object, V>(make: (owner: K) => V): (owner: K) => V {
  const made = new WeakMap<K, V>();
  return (owner) => {
    let value = made.get(owner);
    if (value === undefined) made.set(owner, (value = make(owner)));
    return value;
  };
}
