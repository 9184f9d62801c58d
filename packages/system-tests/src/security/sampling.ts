/**
 * Seeded sampling for the route sweeps. A sweep that sends the same kind of hostile input to every
 * route checks each route once per class of input and samples the rest with a fixed seed: every route
 * and every class is still covered, each run sends the same requests, and a failure names the seed.
 * SWEEP_SEED replays another sample.
 */

export const SWEEP_SEED = Number(process.env.SWEEP_SEED ?? 56_2026);

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}
export type Random = ReturnType<typeof generator>;

/** A sequence of its own for each route (FNV-1a of a text), so a case is the same whatever ran before it. */
export const seedOf = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

/** A copy in a seeded order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * Pairs of `items` × `classes` in which every item and every class appears at least once:
 * max(items, classes) pairs in place of their product, in an order drawn from the seed.
 */
export function covering<A, B>(items: readonly A[], classes: readonly B[], random: Random): Array<[A, B]> {
  if (!items.length || !classes.length) return [];
  const a = shuffled(items, random);
  const b = shuffled(classes, random);
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i % a.length], b[i % b.length]]);
}

/**
 * `perRoute` of `classes` for each of `count` routes, taken in turn from one seeded order: every
 * class is sent to some route once the sweep has covered as many routes as it has classes.
 */
export function rotation<T>(classes: readonly T[], count: number, perRoute: number, random: Random): T[][] {
  const order = shuffled(classes, random);
  return Array.from({ length: count }, (_, route) =>
    Array.from({ length: Math.min(perRoute, order.length) }, (_, k) => order[(route * perRoute + k) % order.length]),
  );
}
