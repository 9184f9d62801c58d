import { ProgressBar as KitProgressBar, type ProgressBarProps } from '@portal/ui';

/** The kit's bar, named by `label` as the quiz player's calls name it. */
export function ProgressBar({ label, ...bar }: Omit<ProgressBarProps, 'name'> & { label: string }) {
  return <KitProgressBar name={label} {...bar} />;
}
