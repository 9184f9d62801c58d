import { changeText, figuresFor } from '@portal/contracts';
import { composeStats, sourcesFor } from './compose';

const content = {
  totalCourses: 12,
  activeCourses: 5,
  change: { totalCourses: { last30: 6, prev30: 4 }, activeCourses: { last30: 1, prev30: 2 } },
};
const auth = { totalStudents: 40, newStudents: { last30: 3, prev30: 0 } };
const crm = {
  organizations: 7,
  contacts: 21,
  change: { organizations: { last30: 0, prev30: 0 }, contacts: { last30: 2, prev30: 2 } },
};
const progress = { completedCourses: 2, change: { last30: 1, prev30: 1 } };
const audit = { recent: [], byDay: [{ date: '2026-11-22', count: 3 }] };

describe('the change text of a figure', () => {
  it('gives how many arrived in the last 30 days, in the same unit on every card (docs/decisions/056)', () => {
    expect(changeText({ last30: 6, prev30: 4 })).toBe('+6');
    expect(changeText({ last30: 26, prev30: 0 })).toBe('+26');
    expect(changeText({ last30: 0, prev30: 0 })).toBe('0');
    expect(changeText({ last30: 0, prev30: 3 })).toBe('0');
    for (const text of [changeText({ last30: 26, prev30: 0 }), changeText({ last30: 0, prev30: 0 })])
      expect(text).not.toContain('%');
  });
});

describe('composing the dashboard for a role', () => {
  it('shows staff courses, active courses, students and organizations, never completed courses', () => {
    expect(figuresFor('ADMIN')).toEqual(['totalCourses', 'activeCourses', 'totalStudents', 'organizations']);
    const stats = composeStats('CURATOR', { content, auth, crm, audit });
    expect(stats).toMatchObject({
      totalCourses: 12,
      activeCourses: 5,
      totalStudents: 40,
      organizations: 7,
      contacts: 21,
      completedCourses: null,
      partial: false,
      activityScope: 'courses',
    });
    expect(stats.change).toEqual({
      totalCourses: '+6',
      activeCourses: '+1',
      totalStudents: '+3',
      organizations: '0',
      contacts: '+2',
      completedCourses: null,
    });
  });

  it('shows everyone else courses, active courses and their own completed courses, nothing of the CRM or the students', () => {
    expect(sourcesFor('CLIENT')).toEqual(['content', 'progress', 'audit']);
    // Even if a staff-only answer were at hand, it is not passed on.
    const stats = composeStats('MANAGER', { content, progress, audit, auth, crm });
    expect(stats).toMatchObject({
      totalCourses: 12,
      activeCourses: 5,
      completedCourses: 2,
      totalStudents: null,
      organizations: null,
      contacts: null,
      activityScope: 'own',
    });
    expect(stats.change.totalStudents).toBeNull();
    expect(stats.change.completedCourses).toBe('+1');
  });

  it('gives null figures for a service that did not answer and marks the whole partial', () => {
    const stats = composeStats('ADMIN', { content: null, auth, crm: null, audit: null });
    expect(stats).toMatchObject({
      totalCourses: null,
      activeCourses: null,
      organizations: null,
      contacts: null,
      totalStudents: 40,
      partial: true,
    });
    expect(stats.unavailable).toEqual(['content', 'crm', 'audit']);
    expect(stats.recentActivity).toEqual([]);
    expect(stats.activityByDay).toEqual([]);
  });

  it('names the figures a service counted to the cap, and tells no change for a window counted to it', () => {
    const many = {
      ...crm,
      organizations: 10_000,
      change: { organizations: { last30: 10_000, prev30: 120, exact: false as const }, contacts: crm.change.contacts },
      lowerBounds: ['organizations' as const],
    };
    const stats = composeStats('ADMIN', { content, auth, crm: many, audit });
    expect(stats.organizations).toBe(10_000);
    expect(stats.lowerBounds).toEqual(['organizations']);
    expect(stats.change.organizations).toBeNull();
    expect(stats.change.totalStudents).toBe('+3');
    // A learner does not see the CRM's figures, so none of them is named.
    expect(composeStats('CLIENT', { content, progress, crm: many, audit }).lowerBounds).toEqual([]);
    expect(composeStats('ADMIN', { content, auth, crm, audit }).lowerBounds).toEqual([]);
  });
});
