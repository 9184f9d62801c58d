import { useCallback, useEffect, useState } from 'react';
import type { ConsentState } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

/** The person's consent as the server has it: read once per sign-in, and again after a change. */
export function useConsent(signedIn: boolean) {
  const [state, setState] = useState<ConsentState | null>(null);
  const reload = useCallback(async () => {
    setState(await apiRequest<ConsentState>('/consent').catch(() => null));
  }, []);
  useEffect(() => {
    if (signedIn) void reload();
    else setState(null);
  }, [signedIn, reload]);
  return { state, reload };
}
