import styled from 'styled-components';

/** Line icons drawn inline (a few hundred bytes in all; no icon library on the landing). */
const PATHS = {
  sparkles: [
    'M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z',
    'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
  ],
  layers: ['M12 3L2 8l10 5 10-5-10-5z', 'M2 12l10 5 10-5', 'M2 17l10 5 10-5'],
  move: ['M12 2v20', 'M2 12h20', 'M9 5l3-3 3 3', 'M9 19l3 3 3-3', 'M5 9l-3 3 3 3', 'M19 9l3 3-3 3'],
  quiz: ['M4 4h16v16H4z', 'M8 12l3 3 5-6'],
  chart: ['M3 21h18', 'M6 17v-5', 'M11 17V7', 'M16 17v-3', 'M21 17V4'],
  plug: ['M9 2v6', 'M15 2v6', 'M6 8h12v4a6 6 0 0 1-12 0z', 'M12 18v4'],
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <Svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </Svg>
  );
}

const Svg = styled.svg`
  width: 24px;
  height: 24px;
  fill: none;
  stroke: currentColor;
  stroke-width: 1.8;
  stroke-linecap: round;
  stroke-linejoin: round;
`;

/** A rounded square with its glyph or icon in the middle: the logo, an advantage's icon. */
export const IconTile = styled.span<{ $size: number; $radius: number }>`
  display: inline-grid;
  place-items: center;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border-radius: ${({ $radius }) => $radius}px;
`;
