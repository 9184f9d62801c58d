import { ruCount, ruForm } from './plural';

const LESSONS = { one: 'урок', few: 'урока', many: 'уроков' };

describe('ruForm and ruCount', () => {
  it('take the form Russian asks after each number', () => {
    expect([0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map((n) => ruCount(n, LESSONS))).toEqual([
      '0 уроков',
      '1 урок',
      '2 урока',
      '4 урока',
      '5 уроков',
      '11 уроков',
      '12 уроков',
      '14 уроков',
      '21 урок',
      '22 урока',
      '25 уроков',
      '101 урок',
      '111 уроков',
    ]);
  });

  it('say a fraction with the genitive singular, or the form given for it', () => {
    expect(ruForm(1.5, { one: 'час', few: 'часа', many: 'часов' })).toBe('часа');
    expect(ruForm(2.5, { one: 'курса', few: 'курсов', many: 'курсов', other: 'курса' })).toBe('курса');
  });
});
