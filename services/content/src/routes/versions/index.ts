import { implement, type DeclaredHandler } from '@portal/service-kit';
import { loadEditableCourse } from '../../commands/courses';
import type { ContentModels } from '../../models';
import { presentVersion } from '../../presenters/version';
import { discardDraft, pruneVersions, publishDraft, restoreVersion } from '../../versions/commands';
import {
  compareVersions,
  draftState,
  listVersions,
  loadAuthoredCourse,
  versionLessonRecord,
  versionOutline,
} from '../../versions/reads';
import {
  compareCourseVersions,
  discardCourseDraft,
  getCourseDraft,
  getCourseVersion,
  getCourseVersionLesson,
  listCourseVersions,
  publishCourseVersion,
  pruneCourseVersions,
  restoreCourseVersion,
} from './declarations';

/**
 * A course's draft and published versions (docs/decisions/093) beside their declarations: the
 * authors read the draft's state and the history, publish, discard, compare and restore.
 */
export function versionRoutes(models: ContentModels): DeclaredHandler[] {
  return [
    implement(getCourseDraft, async (ctx, { params }) =>
      draftState(models, await loadAuthoredCourse(models, ctx.state.user, params.id)),
    ),
    implement(publishCourseVersion, async (ctx, { params, body, record }) => {
      const course = await loadEditableCourse(models, ctx.state.user, params.id);
      const { version, course: after } = await publishDraft(models, ctx.state.user, course, body);
      record({
        code: 'course.versionPublished',
        data: { title: course.title, number: version.number, summary: version.summary },
        entityId: String(course._id),
      });
      return presentVersion(version, after);
    }),
    implement(discardCourseDraft, async (ctx, { params, body, record }) => {
      const course = await discardDraft(models, ctx.state.user, params.id, body.basedOn);
      record({ code: 'course.draftDiscarded', data: { title: course.title }, entityId: String(course._id) });
      return draftState(models, course);
    }),
    implement(listCourseVersions, async (ctx, { params, query }) =>
      listVersions(models, await loadAuthoredCourse(models, ctx.state.user, params.id), query),
    ),
    implement(compareCourseVersions, async (ctx, { params, query }) =>
      compareVersions(models, await loadAuthoredCourse(models, ctx.state.user, params.id), query.from, query.to),
    ),
    implement(pruneCourseVersions, async (ctx, { params, body, record }) => {
      const course = await loadEditableCourse(models, ctx.state.user, params.id);
      const outcome = await pruneVersions(models, course, body.keep);
      record({
        code: 'course.versionsPruned',
        data: { title: course.title, removed: outcome.removed },
        entityId: String(course._id),
      });
      return outcome;
    }),
    implement(getCourseVersion, async (ctx, { params }) =>
      versionOutline(models, await loadAuthoredCourse(models, ctx.state.user, params.id), params.number),
    ),
    implement(getCourseVersionLesson, async (ctx, { params }) =>
      versionLessonRecord(models, await loadAuthoredCourse(models, ctx.state.user, params.id), params.number, params.lessonId),
    ),
    implement(restoreCourseVersion, async (ctx, { params, record }) => {
      const course = await restoreVersion(models, ctx.state.user, params.id, params.number);
      record({
        code: 'course.versionRestored',
        data: { title: course.title, number: params.number },
        entityId: String(course._id),
      });
      return draftState(models, (await models.courses.findById(course._id).lean()) ?? course);
    }),
  ];
}
