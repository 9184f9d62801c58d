import type { ChangeKind } from '@portal/contracts';
import { Badge } from '@portal/ui';
import { CHANGE_MARKS } from './texts';

/** «новый» or «изменён» beside a module or lesson of the outline that differs from the published version. */
export function ChangeMark({ kind }: { kind: ChangeKind | undefined }) {
  const label = kind && CHANGE_MARKS[kind];
  if (!label) return null;
  return (
    <Badge $tone={kind === 'added' ? 'primary' : 'warning'} title="Отличается от опубликованной версии">
      {label}
    </Badge>
  );
}
