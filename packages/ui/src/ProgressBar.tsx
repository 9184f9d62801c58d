import styled from 'styled-components';

export interface ProgressBarProps {
  /** The accessible name, e.g. «Ход генерации». */
  name: string;
  /** 0..100 */
  value: number;
  /** What a screen reader says instead of the bare number, e.g. «40% — Пишем уроки». */
  valueText?: string;
  tone?: 'primary' | 'success' | 'danger';
  size?: 'sm' | 'md';
}

/** A determinate progress bar with its ARIA values: the number is announced, the bar only shows it. */
export function ProgressBar({ name, value, valueText, tone = 'primary', size = 'md' }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <Track
      role="progressbar"
      aria-label={name}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      $size={size}
    >
      <Fill $tone={tone} style={{ width: `${clamped}%` }} />
    </Track>
  );
}

const Track = styled.div<{ $size: 'sm' | 'md' }>`
  width: 100%;
  height: ${({ $size }) => ($size === 'sm' ? 6 : 10)}px;
  border-radius: 999px;
  overflow: hidden;
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const Fill = styled.div<{ $tone: 'primary' | 'success' | 'danger' }>`
  height: 100%;
  border-radius: inherit;
  background: ${({ theme, $tone }) => theme.colors[$tone]};
  transition: width 300ms ease;
`;
