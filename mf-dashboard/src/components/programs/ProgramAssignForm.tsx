import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  AUDIENCE_LABELS,
  ROLE_LABELS,
  STUDY_ROLES,
  programAssignmentCreateSchema,
  type AudienceKind,
  type ProgramAssignmentCreateInput,
  type Role,
} from '@portal/contracts';
import { Button, Check, CodeSelect, ErrorBox, Input, Label, Muted } from '@portal/ui';
import { DepartmentSelect } from '../AssignForm';
import { PeoplePicker, type PickedPerson } from '../PeoplePicker';

/** The kinds of audience offered, as the course assignment form offers them. */
const KINDS: AudienceKind[] = ['department', 'users', 'role', 'all'];

interface Props {
  programId: string;
  busy: boolean;
  error: string | null;
  onSubmit: (input: ProgramAssignmentCreateInput) => void;
}

/**
 * «Назначить программу»: who (the course assignment's audience: a department, people, a role,
 * everyone), mandatory, recurrence in months, a message. There is no due date: each stage has its own.
 */
export function ProgramAssignForm({ programId, busy, error, onSubmit }: Props) {
  const [kind, setKind] = useState<AudienceKind>('department');
  const [department, setDepartment] = useState('');
  const [role, setRole] = useState<Role>('CLIENT');
  const [people, setPeople] = useState<PickedPerson[]>([]);
  const [mandatory, setMandatory] = useState(true);
  const [recurrence, setRecurrence] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const audience =
      kind === 'users'
        ? { kind, userIds: people.map((p) => p.id) }
        : kind === 'department'
          ? { kind, department }
          : kind === 'role'
            ? { kind, role }
            : { kind };
    const checked = programAssignmentCreateSchema.safeParse({
      programId,
      audience,
      mandatory,
      recurrenceMonths: recurrence ? Number(recurrence) : null,
      message,
    });
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Проверьте поля формы');
    setProblem(null);
    onSubmit(checked.data);
  };

  return (
    <Form onSubmit={submit} noValidate aria-label="Назначить программу">
      <Label>
        Кому
        <CodeSelect codes={KINDS} labels={AUDIENCE_LABELS} value={kind} onValue={setKind} />
      </Label>
      {kind === 'department' && <DepartmentSelect value={department} onChange={(e) => setDepartment(e.target.value)} />}
      {kind === 'users' && <PeoplePicker picked={people} onChange={setPeople} />}
      {kind === 'role' && (
        <Label>
          Роль
          <CodeSelect codes={STUDY_ROLES} labels={ROLE_LABELS} value={role} onValue={setRole} />
        </Label>
      )}
      <Label>
        Повторять каждые (месяцев)
        <Input type="number" min={1} max={120} value={recurrence} onChange={(e) => setRecurrence(e.target.value)} />
      </Label>
      <Check label="Обязательное" checked={mandatory} onChange={(e) => setMandatory(e.target.checked)} />
      <Label>
        Сообщение
        <Input maxLength={2000} value={message} onChange={(e) => setMessage(e.target.value)} />
      </Label>
      {(problem || error) && <ErrorBox>{problem ?? error}</ErrorBox>}
      {kind === 'department' && <Muted>Сотрудники, которые позже придут в подразделение, тоже получат программу.</Muted>}
      <Button type="submit" disabled={busy}>
        Назначить
      </Button>
    </Form>
  );
}

const Form = styled.form`
  display: grid;
  gap: 12px;
  p {
    margin: 0;
  }
`;
