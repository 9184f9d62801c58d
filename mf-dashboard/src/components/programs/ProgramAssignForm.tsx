import styled from 'styled-components';
import { programAssignmentCreateSchema, type ProgramAssignmentCreateInput } from '@portal/contracts';
import {
  Button,
  Check,
  ErrorBox,
  Field,
  FormProvider,
  Input,
  messagesByField,
  useCheckedForm,
  type FormCheck,
  type Refusal,
} from '@portal/ui';
import {
  AudienceFields,
  DepartmentNote,
  assignFieldOf,
  audienceOf,
  emptyAudience,
  refusedField,
  type AudienceValues,
} from '../AssignForm';

interface ProgramAssignValues {
  audience: AudienceValues;
  mandatory: boolean;
  /** Text, so that blank means «once». */
  recurrenceMonths: string;
  message: string;
}
const PROGRAM_ASSIGN_FIELDS = ['mandatory', 'recurrenceMonths', 'message'] as const;
type ProgramAssignField = (typeof PROGRAM_ASSIGN_FIELDS)[number];

/** The form's values as the request for `programId`, checked by the contract's schema; each message on its field. */
export const checkProgramAssignment =
  (programId: string) =>
  (values: ProgramAssignValues): FormCheck<ProgramAssignmentCreateInput> => {
    const checked = programAssignmentCreateSchema.safeParse({
      programId,
      audience: audienceOf(values.audience),
      mandatory: values.mandatory,
      recurrenceMonths: values.recurrenceMonths ? Number(values.recurrenceMonths) : null,
      message: values.message,
    });
    if (checked.success) return { ok: true, values: checked.data };
    return { ok: false, errors: messagesByField(checked.error.issues, (path) => assignFieldOf(PROGRAM_ASSIGN_FIELDS, path)) };
  };

interface Props {
  programId: string;
  busy: boolean;
  /** The server's refusal: under the field it names, else above the button. */
  error: Refusal | null;
  onSubmit: (input: ProgramAssignmentCreateInput) => void;
}

/**
 * «Назначить программу»: who (the course assignment's audience: a department, people, a role,
 * everyone), mandatory, recurrence in months, a message. There is no due date: each stage has its own.
 */
export function ProgramAssignForm({ programId, busy, error, onSubmit }: Props) {
  const form = useCheckedForm(checkProgramAssignment(programId), {
    audience: emptyAudience(),
    mandatory: true,
    recurrenceMonths: '',
    message: '',
  });
  const { errors } = form.formState;
  const serverField = refusedField(PROGRAM_ASSIGN_FIELDS, error);
  const refused = (field: string) => (error && serverField === field ? error.message : undefined);
  const messageFor = (field: ProgramAssignField) => errors[field]?.message ?? refused(field);

  return (
    <FormProvider {...form}>
      <Form onSubmit={form.handleSubmit((input) => onSubmit(input))} noValidate aria-label="Назначить программу">
        <AudienceFields messageFor={(field) => errors.audience?.[field]?.message ?? refused(`audience.${field}`)} />
        <Field label="Повторять каждые (месяцев)" error={messageFor('recurrenceMonths')}>
          <Input type="number" min={1} max={120} {...form.register('recurrenceMonths')} />
        </Field>
        <Check label="Обязательное" {...form.register('mandatory')} />
        <Field label="Сообщение" error={messageFor('message')}>
          <Input maxLength={2000} {...form.register('message')} />
        </Field>
        {error && !serverField && <ErrorBox>{error.message}</ErrorBox>}
        <DepartmentNote>Сотрудники, которые позже придут в подразделение, тоже получат программу.</DepartmentNote>
        <Button type="submit" disabled={busy}>
          Назначить
        </Button>
      </Form>
    </FormProvider>
  );
}

const Form = styled.form`
  display: grid;
  gap: 12px;
  p {
    margin: 0;
  }
`;
