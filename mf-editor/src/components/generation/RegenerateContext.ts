import { createContext, useContext } from 'react';
import type { RegenerateTarget } from '../../model/proposal';

/**
 * Opens «Перегенерировать…» for a node. Provided only by the real course editor: the demo routes
 * and the new-lesson screen have no course on the server to regenerate in, so they show no button.
 */
export const RegenerateContext = createContext<((target: RegenerateTarget) => void) | null>(null);

export const useRegenerate = () => useContext(RegenerateContext);
