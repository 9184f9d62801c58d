import { useEffect, useState } from 'react';

/** What each part's loader brought, once in: later renders have it at once. */
const loaded = new Map<() => Promise<unknown>, unknown>();

/**
 * A lazy part's module loaded without suspending: `part` once it is in, `failed` if its files could
 * not come. React commits a suspended part's content no sooner than 300 ms after its fallback showed
 * (so that loading states do not flicker), which held a lesson's blocks and its SCORM player back by
 * that much after their files were in; an update from here is committed when it comes. `wanted`
 * false asks for nothing yet.
 */
export function useLoadedPart<T>(load: () => Promise<T>, wanted = true): { part: T | undefined; failed: boolean } {
  const [part, setPart] = useState(() => loaded.get(load) as T | undefined);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!wanted || part !== undefined) return;
    let current = true;
    load().then(
      (module) => {
        loaded.set(load, module);
        if (current) setPart(module);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [load, wanted, part]);
  return { part, failed };
}
