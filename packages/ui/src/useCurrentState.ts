import { useCallback, useRef, useState } from 'react';

/**
 * A state that handlers of calls in flight read as it is now, not as it was in the render that
 * started them: `[value, set, current]`, where `current.current` is always the last value set.
 */
export function useCurrentState<T>(initial: T): [T, (next: T) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const current = useRef(value);
  const set = useCallback((next: T) => {
    current.current = next;
    setValue(next);
  }, []);
  return [value, set, current];
}
