import type { AuditRecord } from '@portal/contracts';
import { activityPhrase, genderOf } from './phrase';

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
  ...patch,
});

describe('the phrase of an audit record', () => {
  it('reads as the spec’s example', () => {
    expect(activityPhrase(record({}))).toBe('Иван Петров создал курс «Основы HR»');
  });

  it('agrees the verb with the person', () => {
    expect(activityPhrase(record({ user: anna }))).toBe('Анна Смирнова создала курс «Основы HR»');
    expect(activityPhrase(record({ user: anna, action: 'login', entity: 'user', details: 'Вход в систему' }))).toBe(
      'Анна Смирнова вошла в систему',
    );
    expect(activityPhrase(record({ action: 'logout', entity: 'user', details: 'Выход из системы' }))).toBe(
      'Иван Петров вышел из системы',
    );
  });

  it('names organizations, contacts, users, lessons and modules as their services describe them', () => {
    expect(activityPhrase(record({ entity: 'organization', details: 'Создана организация "ООО Вектор" (ИНН 7701234567)' }))).toBe(
      'Иван Петров создал организацию «ООО Вектор»',
    );
    expect(
      activityPhrase(
        record({
          action: 'update',
          entity: 'organization',
          details: 'Изменена организация "ООО Вектор" (ИНН 1): статус Активна → Неактивна',
        }),
      ),
    ).toBe('Иван Петров изменил организацию «ООО Вектор»');
    expect(
      activityPhrase(
        record({ user: anna, action: 'delete', entity: 'contact', details: 'Удалён контакт Борис Орлов <boris@example.test>' }),
      ),
    ).toBe('Анна Смирнова удалила контакт «Борис Орлов»');
    expect(
      activityPhrase(record({ action: 'read', entity: 'user', details: 'Просмотр данных пользователя olga@example.test' })),
    ).toBe('Иван Петров просмотрел данные пользователя olga@example.test');
    expect(
      activityPhrase(
        record({ action: 'update', entity: 'user', details: 'Изменён пользователь olga@example.test, роль CLIENT → CURATOR' }),
      ),
    ).toBe('Иван Петров изменил пользователя olga@example.test');
    expect(activityPhrase(record({ entity: 'lesson', details: 'Создан урок «урок_1» в курсе «Основы HR»' }))).toBe(
      'Иван Петров создал урок «урок_1»',
    );
    expect(activityPhrase(record({ entity: 'block', details: 'Создан модуль «модуль_1» в курсе «Основы HR»' }))).toBe(
      'Иван Петров создал модуль «модуль_1»',
    );
  });

  it('says what really happened when the action alone would misname it', () => {
    expect(activityPhrase(record({ user: anna, details: 'Курс «Основы HR» добавлен в избранное' }))).toBe(
      'Анна Смирнова добавила в избранное курс «Основы HR»',
    );
    expect(activityPhrase(record({ entity: 'progress', details: 'Начат курс «Основы HR»' }))).toBe(
      'Иван Петров начал курс «Основы HR»',
    );
    expect(activityPhrase(record({ entity: 'block', details: 'Загружен файл «план.pdf» (1.20 МБ)' }))).toBe(
      'Иван Петров загрузил файл «план.pdf»',
    );
    expect(activityPhrase(record({ user: anna, entity: 'user', entityId: 'u2', details: 'Регистрация с ролью CLIENT' }))).toBe(
      'Анна Смирнова зарегистрировалась',
    );
  });

  it('has a subject even without a person, and without a name', () => {
    expect(activityPhrase(record({ user: null, action: 'delete', details: 'Удалены старые записи' }))).toBe(
      'Система удалила курс',
    );
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
