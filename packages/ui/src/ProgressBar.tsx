import styled from 'styled-components';

export interface ProgressBarProps {
  /** The accessible name, e.g. «Ход генерации». */
  name: string;
  /** 0..100 */
  value: number;
  /** What a screen reader says instead of the bare number, e.g. «40% — Пишем уроки». */
  valueText?: string;
}

/** A determinate progress bar with its ARIA values (one for every long-running job the portal shows). */
export function ProgressBar({ name, value, valueText }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <Track
      role="progressbar"
      aria-label={name}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
    >
      <Fill style={{ width: `${clamped}%` }} />
    </Track>
  );
}

const Track = styled.div`
  height: 10px;
  border-radius: 999px;
  overflow: hidden;
  background: ${({ theme }) => theme.colors.surfaceAlt};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const Fill = styled.div`
  height: 100%;
  background: ${({ theme }) => theme.colors.primary};
  transition: width 300ms ease;
`;
