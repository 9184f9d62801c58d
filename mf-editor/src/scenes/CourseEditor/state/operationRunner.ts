import { useCallback, useState } from 'react';
import { errorMessage } from '@portal/web-core';

/** Runs a write of the structure: answers its result, or null when it failed (said in the sidebar's notice). */
export type Operate = <T>(failure: string, run: () => Promise<T>) => Promise<T | null>;

export interface OperationRunner {
  operate: Operate;
  /** A write is on its way. */
  busy: boolean;
  /** Why the last write failed, until dismissed or the next write starts. */
  notice: string | null;
  dismissNotice: () => void;
}

/** Structural writes, one notice for their failures (the spec only logged them), and `wrote` after each that landed. */
export function useOperationRunner(wrote: () => void): OperationRunner {
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState(0);

  const operate = useCallback<Operate>(
    async (failure, run) => {
      setRunning((n) => n + 1);
      setNotice(null);
      try {
        const done = await run();
        wrote();
        return done;
      } catch (err) {
        console.error(failure, err);
        setNotice(`${failure}: ${errorMessage(err)}`);
        return null;
      } finally {
        setRunning((n) => n - 1);
      }
    },
    [wrote],
  );
  const dismissNotice = useCallback(() => setNotice(null), []);

  return { operate, busy: running > 0, notice, dismissNotice };
}
