import { APPLY_FOR_ROLES, ROLE_LABELS, type Role } from '@portal/contracts';
import { CodeOptions, Field, Muted, Select } from '@portal/ui';
import type { RegistrationForm } from '../forms';

/** The role a person registers with, and what choosing a staff role means (an application). */
export function RoleField({
  form,
  roles,
  required = false,
}: {
  form: RegistrationForm;
  roles: readonly Role[];
  required?: boolean;
}) {
  const role = (form.watch('role') ?? 'CANDIDATE') as Role;
  return (
    <>
      <Field required={required} label="Роль" error={form.formState.errors.role?.message}>
        <Select {...form.register('role')}>
          <CodeOptions codes={roles} labels={ROLE_LABELS} />
        </Select>
      </Field>
      {APPLY_FOR_ROLES.includes(role) && (
        <Muted>
          Роль «{ROLE_LABELS[role]}» назначает администратор: будет отправлена заявка, а до её одобрения вам доступно обучение.
        </Muted>
      )}
    </>
  );
}
