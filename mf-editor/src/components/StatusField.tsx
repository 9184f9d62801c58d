import { COURSE_STATUSES, COURSE_STATUS_LABELS, type CourseStatus } from '@portal/contracts';
import { CodeSelect, Label } from '@portal/ui';

/** The status of a course or of a lesson (they share the three statuses), chosen under its label. */
export function StatusField({
  label,
  value,
  onValue,
}: {
  label: string;
  value: CourseStatus;
  onValue: (status: CourseStatus) => void;
}) {
  return (
    <Label>
      {label}
      <CodeSelect codes={COURSE_STATUSES} labels={COURSE_STATUS_LABELS} value={value} onValue={onValue} />
    </Label>
  );
}
