import {
  DASHBOARD_FIGURES,
  activityScopeFor,
  changeText,
  isStaff,
  visibleFiguresFor,
  withoutOthersEmail,
  type AuditActivity,
  type AuthStats,
  type ContentStats,
  type CrmStats,
  type DashboardFigure,
  type DashboardSource,
  type DashboardStats,
  type PeriodChange,
  type ProgressStats,
  type Role,
} from '@portal/contracts';

/** What the services answered: a value, null when asked and not answered in time, undefined when not asked. */
export interface SourceAnswers {
  content?: ContentStats | null;
  auth?: AuthStats | null;
  crm?: CrmStats | null;
  progress?: ProgressStats | null;
  audit?: AuditActivity | null;
}

/** Which services a role's dashboard needs: staff (ADMIN, CURATOR) see the catalogue, people, CRM and audit figures; everyone else their own progress. */
export const sourcesFor = (role: Role): DashboardSource[] =>
  isStaff(role) ? ['content', 'auth', 'crm', 'audit'] : ['content', 'progress', 'audit'];

/**
 * Puts the services' answers together for one role. A figure the role does not see is null; a
 * figure whose service did not answer is null too, and then the answer is marked partial.
 */
export function composeStats(role: Role, answers: SourceAnswers, viewerId?: string): DashboardStats {
  const { content, auth, crm, progress, audit } = answers;
  const known: Record<DashboardFigure, { value: number; change: PeriodChange } | null> = {
    totalCourses: content ? { value: content.totalCourses, change: content.change.totalCourses } : null,
    activeCourses: content ? { value: content.activeCourses, change: content.change.activeCourses } : null,
    totalStudents: auth ? { value: auth.totalStudents, change: auth.newStudents } : null,
    completedCourses: progress ? { value: progress.completedCourses, change: progress.change } : null,
    organizations: crm ? { value: crm.organizations, change: crm.change.organizations } : null,
    contacts: crm ? { value: crm.contacts, change: crm.change.contacts } : null,
  };
  const visible = new Set(visibleFiguresFor(role));
  const figure = (name: DashboardFigure) => (visible.has(name) ? known[name] : null);
  const unavailable = sourcesFor(role).filter((source) => answers[source] === null);
  const scope = activityScopeFor(role);
  return {
    totalCourses: figure('totalCourses')?.value ?? null,
    activeCourses: figure('activeCourses')?.value ?? null,
    totalStudents: figure('totalStudents')?.value ?? null,
    completedCourses: figure('completedCourses')?.value ?? null,
    organizations: figure('organizations')?.value ?? null,
    contacts: figure('contacts')?.value ?? null,
    // A change whose window was counted only to the cap tells nothing: none is shown.
    change: Object.fromEntries(
      DASHBOARD_FIGURES.map((name) => {
        const f = figure(name);
        return [name, f && f.change.exact !== false ? changeText(f.change) : null];
      }),
    ) as Record<DashboardFigure, string | null>,
    lowerBounds: DASHBOARD_FIGURES.filter(
      (name) => figure(name) && [content, auth, crm, progress].some((answer) => answer?.lowerBounds?.includes(name)),
    ),
    recentActivity: scope === 'courses' ? (audit?.recent ?? []).map(withoutOthersEmail(viewerId)) : (audit?.recent ?? []),
    activityByDay: audit?.byDay ?? [],
    activityScope: scope,
    partial: unavailable.length > 0,
    unavailable,
  };
}
