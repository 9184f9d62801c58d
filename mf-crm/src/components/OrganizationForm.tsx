import { ORG_STATUSES, ORG_STATUS_LABELS, organizationCreateSchema, type OrgStatus, type Organization } from '@portal/contracts';
import { CodeOptions, Field, FormActions, Input, Select, useZodForm } from '@portal/ui';
import { FormGrid, type FormProps } from './Form';

export interface OrganizationValues {
  name: string;
  inn: string;
  site: string;
  status: OrgStatus;
}

interface Props extends FormProps<OrganizationValues> {
  initial?: Organization;
  submitLabel: string;
}

/** Create and edit share one form; the contracts schema checks it as the server will. */
export function OrganizationForm({ initial, submitLabel, busy, onSubmit, onCancel }: Props) {
  const form = useZodForm(organizationCreateSchema, {
    name: initial?.name ?? '',
    inn: initial?.inn ?? '',
    site: initial?.site ?? '',
    status: initial?.status ?? 'ACTIVE',
  });
  const { errors } = form.formState;
  // The server parses what it is sent; the form only decides whether to send it.
  const submit = form.handleSubmit(() => onSubmit(form.getValues() as OrganizationValues));

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Field required label="Название" error={errors.name?.message}>
        <Input maxLength={300} data-autofocus {...form.register('name')} />
      </Field>
      <Field required label="ИНН" error={errors.inn?.message}>
        <Input maxLength={32} inputMode="numeric" {...form.register('inn')} />
      </Field>
      <Field label="Сайт" error={errors.site?.message}>
        <Input maxLength={500} placeholder="example.ru" {...form.register('site')} />
      </Field>
      <Field label="Статус" error={errors.status?.message}>
        <Select {...form.register('status')}>
          <CodeOptions codes={ORG_STATUSES} labels={ORG_STATUS_LABELS} />
        </Select>
      </Field>
      <FormActions submitLabel={submitLabel} busy={busy} onCancel={onCancel} />
    </FormGrid>
  );
}
