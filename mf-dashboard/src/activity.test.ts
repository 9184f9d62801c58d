import type { AuditRecord } from '@portal/contracts';
import { activityPhrase, readableDetails } from './activity';
import { genderOf } from './gender';

const ivan = { id: 'u1', fullName: 'Иван Петров', email: 'ivan@example.test' };
const anna = { id: 'u2', fullName: 'Анна Смирнова', email: 'anna@example.test' };
const record = (patch: Partial<AuditRecord>): AuditRecord => ({
  id: 'e1',
  action: 'create',
  entity: 'course',
  entityId: 'c1',
  details: 'Создан курс «Основы HR»',
  user: ivan,
  timestamp: '2026-11-22T10:00:00.000Z',
  code: 'course.created',
  data: { title: 'Основы HR' },
  ...patch,
});

describe('the phrase of an audit record', () => {
  it('reads as the spec’s example, from the record’s code and data', () => {
    expect(activityPhrase(record({}))).toBe('Иван Петров создал курс «Основы HR»');
    // The data, not the stored text, names the course: a rewording in the table reaches old records too.
    expect(activityPhrase(record({ details: 'Создан курс «Старое название»' }))).toBe('Иван Петров создал курс «Основы HR»');
  });

  it('agrees the verb with the person, and «Система» when no one acted', () => {
    expect(activityPhrase(record({ user: anna }))).toBe('Анна Смирнова создала курс «Основы HR»');
    expect(
      activityPhrase(
        record({
          user: anna,
          action: 'delete',
          entity: 'contact',
          code: 'contact.deleted',
          data: { fullName: 'Борис Орлов', email: 'boris@example.test' },
        }),
      ),
    ).toBe('Анна Смирнова удалила контакт «Борис Орлов»');
    expect(
      activityPhrase(
        record({ user: null, action: 'delete', entity: 'audit', code: 'audit.purged', data: { days: 1095, removed: 120 } }),
      ),
    ).toBe('Система удалила записи журнала старше 1095 дн.: 120');
  });

  it('says what was done to what for a record the migration could not read, or whose data no longer fits its code', () => {
    const old = { code: undefined, data: undefined };
    expect(activityPhrase(record({ ...old, action: 'update', details: 'Курс правлен вручную' }))).toBe(
      'Иван Петров изменил курс',
    );
    expect(activityPhrase(record({ ...old, user: anna, action: 'login', entity: 'user', details: 'Вход' }))).toBe(
      'Анна Смирнова вошла в систему',
    );
    expect(activityPhrase(record({ data: { name: 'не то поле' } }))).toBe('Иван Петров создал курс');
    expect(activityPhrase(record({ ...old, user: null, action: 'delete', details: 'Удалены старые записи' }))).toBe(
      'Система удалила курс',
    );
  });
});

describe('the details of a record in the history', () => {
  it('shows roles and statuses by their Russian labels', () => {
    expect(readableDetails('Изменён курс «Основы HR», статус published → hidden')).toBe(
      'Изменён курс «Основы HR», статус Опубликован → Скрыт',
    );
    expect(readableDetails('Регистрация с ролью CANDIDATE')).toBe('Регистрация с ролью Кандидат');
    expect(readableDetails('Создан курс «Основы HR»')).toBe('Создан курс «Основы HR»');
  });
});

describe('the gender a name tells', () => {
  it.each([
    ['Иван Петров', 'm'],
    ['Анна Смирнова', 'f'],
    ['Екатерина Волкова', 'f'],
    ['Ольга Кузнецова', 'f'],
    ['Дмитрий Соколов', 'm'],
    ['Михаил Орлов', 'm'],
    ['Никита Ким', 'm'],
    ['Илья', 'm'],
    ['Мария', 'f'],
    ['Любовь Ли', 'f'],
    ['Лев Толстой', 'm'],
    ['Мария Толстая', 'f'],
    ['Константин', 'm'],
    ['Гость Демо', 'm'],
  ])('%s', (name, gender) => {
    expect(genderOf(name)).toBe(gender);
  });
});
