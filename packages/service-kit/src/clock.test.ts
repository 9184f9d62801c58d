import { clock, DAY_MS } from './clock';

afterEach(() => clock.reset());

it('answers the real time until a test moves it', () => {
  expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(50);
});

it('moves to a set moment and forward by days, and back to the real time on reset', () => {
  clock.set(new Date('2030-01-10T09:00:00Z'));
  expect(clock.now().toISOString().slice(0, 10)).toBe('2030-01-10');
  clock.advance(3 * DAY_MS);
  expect(clock.now().toISOString().slice(0, 10)).toBe('2030-01-13');
  clock.reset();
  expect(clock.now().getFullYear()).toBe(new Date().getFullYear());
});

it('cannot be moved in production', () => {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    expect(() => clock.advance(DAY_MS)).toThrow('production');
  } finally {
    process.env.NODE_ENV = before;
  }
});
