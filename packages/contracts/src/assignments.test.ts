import { addMonths, daysBetween, personStatus } from './assignments';

const now = new Date('2030-03-10T09:00:00Z');

describe('personStatus', () => {
  it('counts days to the due day: 0 on it, negative after it (просрочен)', () => {
    expect(personStatus({ dueDate: '2030-03-15', recurrenceMonths: null, completedAt: null, started: false, now })).toMatchObject(
      {
        status: 'not_started',
        daysLeft: 5,
      },
    );
    expect(personStatus({ dueDate: '2030-03-10', recurrenceMonths: null, completedAt: null, started: true, now })).toMatchObject({
      status: 'in_progress',
      daysLeft: 0,
    });
    expect(personStatus({ dueDate: '2030-03-08', recurrenceMonths: null, completedAt: null, started: true, now })).toMatchObject({
      status: 'overdue',
      daysLeft: -2,
    });
  });

  it('keeps a completion, also a late one, with its date', () => {
    const completedAt = new Date('2030-03-09T12:00:00Z');
    expect(personStatus({ dueDate: '2030-03-01', recurrenceMonths: null, completedAt, started: true, now })).toEqual({
      status: 'completed',
      dueDate: '2030-03-01',
      daysLeft: -9,
      completedAt: completedAt.toISOString(),
    });
  });

  it('a recurring one is due again N months after the completion, then просрочен', () => {
    const completedAt = new Date('2029-03-20T12:00:00Z');
    expect(personStatus({ dueDate: '2029-03-31', recurrenceMonths: 12, completedAt, started: true, now })).toMatchObject({
      status: 'completed',
      dueDate: '2030-03-20',
      daysLeft: 10,
    });
    const later = new Date('2030-03-21T09:00:00Z');
    expect(personStatus({ dueDate: '2029-03-31', recurrenceMonths: 12, completedAt, started: true, now: later })).toMatchObject({
      status: 'overdue',
      dueDate: '2030-03-20',
    });
  });

  it('counts days on the Moscow calendar', () => {
    // 22:30 UTC is already the next day in Moscow.
    const lateEvening = new Date('2030-03-10T22:30:00Z');
    expect(
      personStatus({ dueDate: '2030-03-11', recurrenceMonths: null, completedAt: null, started: false, now: lateEvening })
        .daysLeft,
    ).toBe(0);
  });
});

it('adds calendar months, the 31st becoming the month’s last day', () => {
  expect(addMonths('2030-01-31', 1)).toBe('2030-02-28');
  expect(addMonths('2030-11-15', 3)).toBe('2031-02-15');
  expect(daysBetween('2030-02-27', '2030-03-01')).toBe(2);
});
