import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Autosaver, type AutosaveStatus, type AutosaverOptions } from './autosave';

/** The status of a machine, as React state. */
export const useAutosaveStatus = <T>(saver: Autosaver<T>): AutosaveStatus =>
  useSyncExternalStore(saver.subscribe, saver.getStatus);

/**
 * Autosaves a value: one machine for the component's life, fed every new value. The first render
 * feeds the value the machine started with, which it never saves. Leaving saves what is pending.
 */
export function useAutosave<T>(value: T, options: AutosaverOptions<T>): { saver: Autosaver<T>; status: AutosaveStatus } {
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  const [saver] = useState(() => new Autosaver<T>(value, { ...options, save: (doc) => optionsRef.current.save(doc) }));
  useEffect(() => {
    saver.change(value);
  }, [saver, value]);
  useEffect(
    () => () => {
      if (saver.isDirty()) saver.saveNow();
    },
    [saver],
  );
  return { saver, status: useAutosaveStatus(saver) };
}
