import { useState } from 'react';

/** What the editor's main area shows: the course overview, a lesson (or its block panel), or nothing chosen. */
export interface Selection {
  selectedId: string | null;
  overview: boolean;
  blocksPanel: boolean;
  /** The lesson just added: its editor opens with the name field focused, to be named at once. */
  namingId: string | null;
  /** Opens a lesson (or nothing), closing the overview and the block panel. */
  select: (id: string | null) => void;
  /** Opens a lesson to be named at once. */
  selectToName: (id: string) => void;
  /** A lesson clicked in the sidebar: clicking the selected one again toggles its block panel. */
  clickLesson: (id: string) => void;
  toggleOverview: () => void;
  closeBlocksPanel: () => void;
}

export function useSelection(): Selection {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [blocksPanel, setBlocksPanel] = useState(false);
  const [overview, setOverview] = useState(false);
  const [namingId, setNamingId] = useState<string | null>(null);

  const select = (id: string | null) => {
    setSelectedId(id);
    setNamingId(null);
    setBlocksPanel(false);
    setOverview(false);
  };

  return {
    selectedId,
    overview,
    blocksPanel,
    namingId,
    select,
    selectToName: (id) => {
      select(id);
      setNamingId(id);
    },
    clickLesson: (id) => {
      if (id === selectedId && !overview) setBlocksPanel((open) => !open);
      else select(id);
    },
    toggleOverview: () => setOverview((open) => !open),
    closeBlocksPanel: () => setBlocksPanel(false),
  };
}
