import type { ManagedProcess } from './processes';

export default async function globalTeardown(): Promise<void> {
  const started = ((globalThis as Record<string, unknown>).__PORTAL_STACK__ ?? []) as ManagedProcess[];
  await Promise.all(started.map((p) => p.stop()));
}
