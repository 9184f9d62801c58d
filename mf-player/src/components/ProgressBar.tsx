import styled from 'styled-components';

/** A labelled bar: the number is announced, the bar only shows it. */
export function ProgressBar({
  value,
  label,
  tone = 'primary',
  size = 'md',
}: {
  value: number;
  label: string;
  tone?: 'primary' | 'success' | 'danger';
  size?: 'sm' | 'md';
}) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <Track role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={clamped} $size={size}>
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
  transition: width 300ms ease;
  background: ${({ theme, $tone }) => ($tone === 'success' ? theme.colors.success : $tone === 'danger' ? theme.colors.danger : theme.colors.primary)};
`;
