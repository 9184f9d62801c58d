/**
 * How a quiz is shuffled for a learner: one pure engine for every service. The seed is a random
 * value stored with what is shown (an attempt, or a quiz's learner view), never derived from a
 * secret, so nobody can rebuild the order without reading the store.
 */

/** FNV-1a: a seed and a label become a 32-bit starting state. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, and the same in every runtime. */
function randomFrom(state: number): () => number {
  let a = state;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order n items are shown in (result[shown position] = original index), the same for the same
 * seed and label (a question's id and what is shuffled). `avoidIdentity`: never the original order
 * when there are two or more items (an ordering task shown solved is no task).
 */
export function seededOrder(seed: string, label: string, n: number, { avoidIdentity = false } = {}): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const random = randomFrom(hash32(`${seed}:${label}`));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (avoidIdentity && n > 1 && order.every((v, i) => v === i)) order.push(order.shift() as number);
  return order;
}

/**
 * n items of a pool drawn for one attempt (a question bank's tag): the same seed and label always
 * draw the same items, another seed others. The pool must be in a stable order (by id).
 */
export function seededDraw<T>(seed: string, label: string, pool: readonly T[], n: number): T[] {
  return seededOrder(seed, `draw:${label}`, pool.length)
    .slice(0, Math.max(0, n))
    .map((i) => pool[i]);
}
