import { ORG_STATUS_LABELS, ORG_STATUSES, type OrgStatus } from '@portal/contracts';
import { legacy } from './define';

const statusOf = (label: string): OrgStatus => ORG_STATUSES.find((s) => ORG_STATUS_LABELS[s] === label) ?? (label as OrgStatus);

/** The changes an organization's edit told, in the order `organization.updated` writes them. */
function orgChanges(told: string | undefined) {
  const changes: Record<string, { from: string | null; to: string | null }> = {};
  const value = (text: string) => (text === 'удалён' ? null : text);
  for (const note of told ? told.split(', ') : []) {
    const m =
      /^название «(.*)» → «(.*)»$/.exec(note) ??
      /^ИНН (\S+) → (\S+)$/.exec(note) ??
      /^(КПП|ОГРН|сайт) (.+)$/.exec(note) ??
      /^статус (.+) → (.+)$/.exec(note);
    if (!m) continue;
    if (note.startsWith('название')) changes.name = { from: m[1], to: m[2] };
    else if (note.startsWith('ИНН')) changes.inn = { from: m[1], to: m[2] };
    else if (note.startsWith('статус')) changes.status = { from: statusOf(m[1]), to: statusOf(m[2]) };
    else changes[{ КПП: 'kpp', ОГРН: 'ogrn', сайт: 'site' }[m[1] as 'КПП']] = { from: null, to: value(m[2]) };
  }
  return changes;
}

export const CRM_LEGACY = [
  legacy('organization.created', /^Создана организация "(.*)" \(ИНН (\S+)\)$/, (m) => ({ name: m[1], inn: m[2] }), {
    details: 'Создана организация "ООО Вектор" (ИНН 7701234567)',
    phrase: 'создал организацию «ООО Вектор»',
  }),
  legacy(
    'organization.updated',
    /^Изменена организация "(.*)" \(ИНН (\S+)\)(?:: (.*))?$/,
    (m) => ({ name: m[1], inn: m[2], changes: orgChanges(m[3]) }),
    {
      details: 'Изменена организация "ООО Вектор" (ИНН 7701234567): статус Активна → Неактивна',
      phrase: 'изменил организацию «ООО Вектор»',
    },
  ),
  legacy(
    'organization.deleted',
    /^Удалена организация "(.*)" \(ИНН (\S+)\) вместе с контактами: (\d+)$/,
    (m) => ({ name: m[1], inn: m[2], contacts: Number(m[3]) }),
    {
      details: 'Удалена организация "ООО Вектор" (ИНН 7701234567) вместе с контактами: 2',
      phrase: 'удалил организацию «ООО Вектор»',
    },
  ),
  legacy('organizations.exported', /^Выгрузка организаций с контактами в (\S+)$/, (m) => ({ file: m[1] }), {
    details: 'Выгрузка организаций с контактами в organizations.csv',
    phrase: 'выгрузил организации с контактами',
  }),
  legacy(
    'organization.contactsViewed',
    /^Просмотр контактов организации "(.*)": (\d+)$/,
    (m) => ({ name: m[1], contacts: Number(m[2]) }),
    { details: 'Просмотр контактов организации "ООО Вектор": 3', phrase: 'просмотрел контакты организации «ООО Вектор»' },
  ),
  legacy(
    'contact.created',
    /^Добавлен контакт (.*) <(.*)> в организацию "(.*)"$/,
    (m) => ({ fullName: m[1], email: m[2], organization: m[3] }),
    {
      details: 'Добавлен контакт Борис Орлов <boris@example.test> в организацию "ООО Вектор"',
      phrase: 'добавил контакт «Борис Орлов» в организацию «ООО Вектор»',
    },
  ),
  legacy('contact.updated', /^Изменён контакт (.*) <(.*)>$/, (m) => ({ fullName: m[1], email: m[2] }), {
    details: 'Изменён контакт Борис Орлов <boris@example.test>',
    phrase: 'изменил контакт «Борис Орлов»',
  }),
  legacy('contact.deleted', /^Удалён контакт (.*) <(.*)>$/, (m) => ({ fullName: m[1], email: m[2] }), {
    details: 'Удалён контакт Борис Орлов <boris@example.test>',
    phrase: 'удалил контакт «Борис Орлов»',
  }),
];
