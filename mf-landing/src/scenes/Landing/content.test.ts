import { CLAIMS } from './content';

// The figures are written out rather than formatted as the page loads (see content.ts): each must be
// exactly what ru-RU's number formatting prints, no-break spaces included.
test('the marketing figures read as ru-RU formats them', () => {
  const number = new Intl.NumberFormat('ru-RU');
  const percent = new Intl.NumberFormat('ru-RU', { style: 'percent' });
  expect(CLAIMS.map((claim) => claim.value)).toEqual([
    percent.format(0.9),
    `+${percent.format(0.4)}`,
    `${number.format(100)}+`,
    `${number.format(190)}+`,
    `${number.format(50_000)}+`,
    percent.format(0.95),
  ]);
});
