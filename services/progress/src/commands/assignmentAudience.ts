import type { Audience, Role } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import type { AudiencePage, PeopleClient } from '../clients/people';
import type { AssignmentDoc } from '../models/assignment';

/**
 * Whom an assignment (or a program's assignment) reaches: its audience rule as stored, as told, and
 * the people it names now.
 */

type StoredAudience = Pick<AssignmentDoc, 'audienceKind' | 'audienceUserIds' | 'audienceDepartment' | 'audienceRole'>;

/** The audience as an assignment stores it. */
export const audienceFields = (audience: Audience) => ({
  audienceKind: audience.kind,
  audienceUserIds: audience.kind === 'users' ? [...new Set(audience.userIds)] : [],
  audienceDepartment: audience.kind === 'department' ? audience.department : '',
  audienceRole: audience.kind === 'role' ? audience.role : null,
});

export const audienceOf = (doc: StoredAudience): Audience =>
  doc.audienceKind === 'users'
    ? { kind: 'users', userIds: doc.audienceUserIds }
    : doc.audienceKind === 'department'
      ? { kind: 'department', department: doc.audienceDepartment }
      : doc.audienceKind === 'role'
        ? { kind: 'role', role: doc.audienceRole as Role }
        : { kind: 'all' };

/** The audience as its audit events name it: the named people counted, not listed. */
export const audienceData = (audience: Audience) =>
  audience.kind === 'users' ? { kind: audience.kind, count: audience.userIds.length } : audience;

/**
 * One page of the people an assignment reaches, as the auth service knows them now (a person who
 * joined the department yesterday is in it; named people who left are not), optionally only those
 * of one department.
 */
export async function audiencePage(
  people: PeopleClient,
  doc: StoredAudience,
  page: number,
  limit: number,
  onlyIds?: string[],
  department?: string,
): Promise<AudiencePage> {
  if (doc.audienceKind === 'department' && department && department !== doc.audienceDepartment) return { data: [], total: 0 };
  if (doc.audienceKind === 'users') {
    const named = onlyIds ? doc.audienceUserIds.filter((id) => onlyIds.includes(id)) : doc.audienceUserIds;
    if (department) {
      // Named people of one department: asked of the auth service a hundred ids at a time.
      return namedOfDepartment(people, named, department, page, limit);
    }
    const ids = named.slice((page - 1) * limit, page * limit);
    if (!ids.length) return { data: [], total: named.length };
    const found = await people.audience({ ids, page: 1, limit: ids.length });
    return { data: found.data, total: named.length };
  }
  return people.audience({
    department: doc.audienceKind === 'department' ? doc.audienceDepartment : department,
    role: doc.audienceKind === 'role' ? (doc.audienceRole ?? undefined) : undefined,
    ids: onlyIds,
    page,
    limit,
  });
}

async function namedOfDepartment(
  people: PeopleClient,
  named: string[],
  department: string,
  page: number,
  limit: number,
): Promise<AudiencePage> {
  const all: AudiencePage['data'] = [];
  for (let i = 0; i < named.length; i += 100) {
    const ids = named.slice(i, i + 100);
    all.push(...(await people.audience({ ids, department, page: 1, limit: ids.length })).data);
  }
  return { data: all.slice((page - 1) * limit, page * limit), total: all.length };
}

/** The filter of the assignments that reach a person: named, of their department, of their role, or everyone's. */
export function assignedTo(person: Principal): Record<string, unknown> {
  const reach: Record<string, unknown>[] = [
    { audienceKind: 'all' },
    { audienceKind: 'users', audienceUserIds: person.id },
    { audienceKind: 'role', audienceRole: person.role },
  ];
  if (person.department) reach.push({ audienceKind: 'department', audienceDepartment: person.department });
  return { $or: reach };
}
