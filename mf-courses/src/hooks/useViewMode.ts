import { useCallback, useState } from 'react';
import { COURSES_VIEW_MODE_KEY } from '@portal/contracts';

export type ViewMode = 'grid' | 'list';

const read = (): ViewMode => {
  try {
    return localStorage.getItem(COURSES_VIEW_MODE_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
};

/** Grid or list, remembered in this browser (localStorage) under coursesViewMode. */
export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  const [mode, setMode] = useState<ViewMode>(read);
  const choose = useCallback((next: ViewMode) => {
    setMode(next);
    try {
      localStorage.setItem(COURSES_VIEW_MODE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
  }, []);
  return [mode, choose];
}
