import { lessonsLabel, nextAutoName, updatedLabel } from '@portal/contracts';

describe('course card texts', () => {
  it('counts lessons with the Russian plural forms', () => {
    const cases: Array<[number, string]> = [
      [0, '0 уроков'],
      [1, '1 урок'],
      [2, '2 урока'],
      [4, '4 урока'],
      [5, '5 уроков'],
      [11, '11 уроков'],
      [12, '12 уроков'],
      [14, '14 уроков'],
      [21, '21 урок'],
      [22, '22 урока'],
      [25, '25 уроков'],
      [101, '101 урок'],
      [111, '111 уроков'],
    ];
    for (const [count, text] of cases) expect(lessonsLabel(count)).toBe(text);
  });

  it('writes the update date in the ru-RU format', () => {
    expect(updatedLabel('2026-03-05T12:00:00.000Z')).toBe('Обновлён: 05.03.2026');
  });

  it('names new modules and lessons one past the highest number', () => {
    expect(nextAutoName('MODULE', [])).toBe('модуль_1');
    expect(nextAutoName('MODULE', ['модуль_1', 'Введение', 'модуль_7', 'модуль_x'])).toBe('модуль_8');
    expect(nextAutoName('LESSON', ['урок_2', 'модуль_9'])).toBe('урок_3');
  });
});
