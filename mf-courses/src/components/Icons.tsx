import { StrokeIcon, pathIcon } from '@portal/ui';

export const HeartIcon = ({ filled }: { filled: boolean }) => (
  <StrokeIcon>
    <path
      d="M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1.1L12 21l7.8-7.5 1-1.1a5.5 5.5 0 0 0 0-7.8z"
      fill={filled ? 'currentColor' : 'none'}
    />
  </StrokeIcon>
);

export const CopyIcon = () => (
  <StrokeIcon>
    <rect x="9" y="9" width="13" height="13" rx="2" />
    <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
  </StrokeIcon>
);

export const TrashIcon = pathIcon('M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2m3 0v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6');

export const GridIcon = () => (
  <StrokeIcon>
    <rect x="3" y="3" width="7" height="7" />
    <rect x="14" y="3" width="7" height="7" />
    <rect x="3" y="14" width="7" height="7" />
    <rect x="14" y="14" width="7" height="7" />
  </StrokeIcon>
);

export const ListIcon = pathIcon('M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01');

export const BackIcon = pathIcon('M19 12H5M12 19l-7-7 7-7');

/** The builder's mark: a sparkle, as the landing page draws AI. */
export const SparkIcon = pathIcon(
  'M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z',
  'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
);
