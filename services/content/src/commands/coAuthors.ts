import { CONTENT_MSG, MAX_CO_AUTHORS, formatMessage, type CourseAuthor, type CourseAuthors } from '@portal/contracts';
import { badRequest, notFound, type Principal } from '@portal/service-kit';
import type { UserDirectory } from '../clients/users';
import type { CourseDoc } from '../models/course';
import { authorizeCoAuthorChange } from '../policies/courses';
import { loadVisibleCourse } from './courses';
import { recordAudit, type CommandDeps } from './deps';
import { nextUpdatedAt } from './touch';

const presentAuthor = (p: Principal): CourseAuthor => ({ id: p.id, email: p.email, fullName: p.fullName });

/** The owner and co-authors as people (one question to the auth service); ones since deleted are left out. */
export async function courseAuthors(
  directory: UserDirectory,
  course: Pick<CourseDoc, 'createdBy' | 'coAuthors'>,
): Promise<CourseAuthors> {
  const ids = [...new Set([course.createdBy, ...(course.coAuthors ?? [])].filter((id): id is string => !!id))];
  const people = new Map((await directory.byIds(ids)).map((p) => [p.id, p]));
  const owner = course.createdBy ? people.get(course.createdBy) : undefined;
  return {
    owner: owner ? presentAuthor(owner) : null,
    coAuthors: (course.coAuthors ?? []).flatMap((id) => {
      const person = people.get(id);
      return person ? [presentAuthor(person)] : [];
    }),
  };
}

async function writeCoAuthors(deps: CommandDeps, course: CourseDoc, coAuthors: string[]): Promise<CourseDoc> {
  // updatedAt moves: the cached course page (keyed by it) carries the co-author ids.
  await deps.models.courses.updateOne(
    { _id: course._id },
    { $set: { coAuthors, updatedAt: nextUpdatedAt(course.updatedAt) } },
    { timestamps: false },
  );
  const after = await deps.models.courses.findById(course._id).lean<CourseDoc>();
  if (!after) throw notFound(CONTENT_MSG.courseNotFound);
  return after;
}

/** The owner or an ADMIN adds a CURATOR (by email or id) as a co-author; adding one twice changes nothing. */
export async function addCoAuthor(
  deps: CommandDeps,
  directory: UserDirectory,
  rawId: unknown,
  target: { email?: string; userId?: string },
): Promise<CourseDoc> {
  const course = await loadVisibleCourse(deps.models, deps.actor, rawId);
  authorizeCoAuthorChange(deps.actor, course);
  const person = target.email
    ? await directory.byEmail(target.email)
    : ((await directory.byIds([target.userId ?? '']))[0] ?? null);
  if (!person) throw notFound(CONTENT_MSG.coAuthorNotFound);
  if (person.id === course.createdBy) throw badRequest(CONTENT_MSG.coAuthorIsOwner, target.email ? 'email' : 'userId');
  if (person.role !== 'CURATOR') throw badRequest(CONTENT_MSG.coAuthorNotCurator, target.email ? 'email' : 'userId');
  const current = course.coAuthors ?? [];
  if (current.includes(person.id)) return course;
  if (current.length >= MAX_CO_AUTHORS) throw badRequest(formatMessage(CONTENT_MSG.coAuthorsTooMany, { max: MAX_CO_AUTHORS }));
  const after = await writeCoAuthors(deps, course, [...current, person.id]);
  recordAudit(deps, {
    code: 'course.coAuthorAdded',
    data: { title: course.title, email: person.email, userId: person.id },
    entityId: String(course._id),
  });
  return after;
}

export async function removeCoAuthor(deps: CommandDeps, rawId: unknown, userId: string): Promise<CourseDoc> {
  const course = await loadVisibleCourse(deps.models, deps.actor, rawId);
  authorizeCoAuthorChange(deps.actor, course);
  const current = course.coAuthors ?? [];
  if (!current.includes(userId)) return course;
  const after = await writeCoAuthors(
    deps,
    course,
    current.filter((id) => id !== userId),
  );
  recordAudit(deps, { code: 'course.coAuthorRemoved', data: { title: course.title, userId }, entityId: String(course._id) });
  return after;
}
