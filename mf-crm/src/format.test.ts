import { contactCount, directoryCount, formatDate, siteHref, totalText } from './format';

describe('CRM formatting', () => {
  it('writes dates in ru-RU format', () => {
    expect(formatDate('2026-11-02T10:00:00.000Z')).toBe('02.11.2026');
  });

  it('chooses the Russian plural form of "контакт"', () => {
    expect([0, 1, 2, 5, 11, 21, 22, 25, 101].map(contactCount)).toEqual([
      '0 контактов',
      '1 контакт',
      '2 контакта',
      '5 контактов',
      '11 контактов',
      '21 контакт',
      '22 контакта',
      '25 контактов',
      '101 контакт',
    ]);
  });

  it('counts every account when nothing narrows the directory, and says what was found when filtered', () => {
    expect(directoryCount({ total: 12 }, { search: '', role: '' })).toBe('Все зарегистрированные пользователи: 12');
    expect(directoryCount({ total: 1 }, { search: '', role: 'CURATOR' })).toBe('Найден 1 пользователь с ролью «Куратор»');
    expect(directoryCount({ total: 3 }, { search: 'анна', role: '' })).toBe('Найдено 3 пользователя по запросу «анна»');
    expect(directoryCount({ total: 0 }, { search: 'анна', role: 'ADMIN' })).toBe(
      'Найдено 0 пользователей с ролью «Администратор» по запросу «анна»',
    );
    expect(directoryCount({ total: 21 }, { search: '', role: 'CLIENT' })).toMatch(/^Найден 21 пользователь с ролью/);
  });

  it('says «более 10 000» where the service stopped counting', () => {
    const capped = { total: 10_000, totalExact: false as const };
    expect(totalText(capped)).toBe('более 10\u00a0000');
    expect(totalText({ total: 10_000 })).toBe('10000');
    expect(directoryCount(capped, { search: '', role: '' })).toBe('Все зарегистрированные пользователи: более 10\u00a0000');
    expect(directoryCount(capped, { search: 'а', role: '' })).toBe('Найдено более 10\u00a0000 пользователей по запросу «а»');
  });

  it('links a site over the web whatever was typed', () => {
    expect(siteHref('example.ru')).toBe('https://example.ru');
    expect(siteHref('http://example.ru/a')).toBe('http://example.ru/a');
    expect(siteHref('HTTPS://Example.ru')).toBe('HTTPS://Example.ru');
    expect(siteHref('javascript:alert(1)')).toBe('https://javascript:alert(1)');
  });
});
