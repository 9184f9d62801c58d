import { legacy } from './define';

export const TRAIL_LEGACY = [
  legacy('audit.exported', /^Выгрузка журнала действий в (\S+)$/, (m) => ({ file: m[1] }), {
    details: 'Выгрузка журнала действий в audit_history.xlsx',
    phrase: 'выгрузил журнал действий',
  }),
  legacy(
    'audit.purged',
    /^Удалены записи журнала старше (\d+) дн\.: (\d+)$/,
    (m) => ({ days: Number(m[1]), removed: Number(m[2]) }),
    { details: 'Удалены записи журнала старше 1095 дн.: 120', phrase: 'удалил записи журнала старше 1095 дн.: 120' },
  ),
];
