import { questionClock } from './questionClock';

describe('time spent on each question of an attempt', () => {
  it('adds the seconds a question was shown to its total, each lap from the previous one', () => {
    let ms = 1_000;
    const clock = questionClock(() => ms);
    clock.restart({});

    ms += 4_000;
    clock.lap('a');
    ms += 2_500;
    clock.lap('b');
    ms += 1_000;
    clock.lap('a');

    expect(clock.spent).toEqual({ a: 5, b: 2.5 });
  });

  it('a resumed attempt counts on from its draft, not from the time before the restart', () => {
    let ms = 0;
    const clock = questionClock(() => ms);
    ms = 60_000;
    clock.restart({ a: 10 });

    ms += 3_000;
    clock.lap('a');

    expect(clock.spent).toEqual({ a: 13 });
  });
});
