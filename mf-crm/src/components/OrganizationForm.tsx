import { useState, type FormEvent } from 'react';
import { ORG_STATUSES, ORG_STATUS_LABELS, organizationCreateSchema, type OrgStatus, type Organization } from '@portal/contracts';
import { Button, Input, Label, Select } from '@portal/ui';
import { firstIssue } from '../format';
import { Actions, FormGrid, Required } from './Form';

export interface OrganizationValues {
  name: string;
  inn: string;
  site: string;
  status: OrgStatus;
}

interface Props {
  initial?: Organization;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: OrganizationValues) => void;
  onCancel: () => void;
}

/** Create and edit share one form; the contracts schema checks it as the server will. */
export function OrganizationForm({ initial, submitLabel, busy, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState<OrganizationValues>({
    name: initial?.name ?? '',
    inn: initial?.inn ?? '',
    site: initial?.site ?? '',
    status: initial?.status ?? 'ACTIVE',
  });
  const set = (key: keyof OrganizationValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = organizationCreateSchema.safeParse(values);
    if (!checked.success) return window.alert(firstIssue(checked.error));
    onSubmit(values);
  };

  return (
    <FormGrid onSubmit={submit} noValidate>
      <Label>
        <span>
          Название
          <Required />
        </span>
        <Input name="name" value={values.name} onChange={set('name')} maxLength={300} autoFocus />
      </Label>
      <Label>
        <span>
          ИНН
          <Required />
        </span>
        <Input name="inn" value={values.inn} onChange={set('inn')} maxLength={32} inputMode="numeric" />
      </Label>
      <Label>
        Сайт
        <Input name="site" value={values.site} onChange={set('site')} maxLength={500} placeholder="example.ru" />
      </Label>
      <Label>
        Статус
        <Select name="status" value={values.status} onChange={set('status')}>
          {ORG_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ORG_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      </Label>
      <Actions>
        <Button type="button" $variant="outline" onClick={onCancel}>
          Отмена
        </Button>
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </Actions>
    </FormGrid>
  );
}
