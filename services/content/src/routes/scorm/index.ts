import {
  parseScormOrigin,
  SCORM_FILES_PATH,
  SCORM_PLAYER_PAGE,
  type ScormCourseUpload,
  type ScormLaunch,
  type ScormPackageSummary,
} from '@portal/contracts';
import type { Context } from 'koa';
import { implement, type DeclaredHandler, type ServiceContext } from '@portal/service-kit';
import { loadEditableCourse } from '../../commands/courses';
import type { ContentConfig } from '../../config';
import type { CommandDeps } from '../../commands/deps';
import type { ContentModels } from '../../models';
import type { ScormPackageDoc } from '../../models/scormPackage';
import { presentLessonOutline, presentModuleOutline } from '../../presenters/block';
import type { ScormFiles } from '../../scorm/files';
import { importAsCourse, launchableSco, storePackage } from '../../scorm/packages';
import type { PackageReceiver, ReceivedPackage } from '../../scorm/receive';
import { signLaunchToken } from '../../scorm/token';
import { launchScorm, uploadScormPackage } from './declarations';
import { scormFileRoute } from './files';

export const presentScormPackage = (p: ScormPackageDoc): ScormPackageSummary => ({
  id: String(p._id),
  courseId: String(p.courseId),
  title: p.title,
  version: p.version,
  edition: p.edition,
  scos: p.scos.map((s) => ({ id: s.id, title: s.title, launch: s.launch, path: [...s.path] })),
  files: p.files,
  bytes: p.bytes,
  createdAt: p.createdAt.toISOString(),
});

/**
 * The frame's address. On the portal's origin: the SCO's launch under the token, each segment kept,
 * its query and fragment too. On a package origin of their own (SCORM_ORIGIN): the portal's player
 * page there, which frames the SCO.
 */
export function launchUrl(token: string, launch: string, scormOrigin: string): string {
  const sco = launch.replace(/^\.?\//, '');
  if (!scormOrigin) return `${SCORM_FILES_PATH}/${token}/${sco}`;
  return `${scormOrigin}${SCORM_FILES_PATH}/${token}/${SCORM_PLAYER_PAGE}?sco=${encodeURIComponent(sco)}`;
}

/** The page that launched: its Origin (the gateway lets only the portal's own through), else the forwarded host. */
function launchingOrigin(ctx: Context): string | undefined {
  const origin = parseScormOrigin(
    ctx.get('origin') || `${ctx.get('x-forwarded-proto') || ctx.protocol}://${ctx.get('x-forwarded-host') || ctx.host}`,
  );
  return origin || undefined;
}

/**
 * POST /api/scorm/packages, POST /api/scorm/launch, and the package's files outside /api
 * (GET /scorm/<token>/<path>, files.ts).
 */
export function scormRoutes(
  service: ServiceContext<ContentConfig>,
  models: ContentModels,
  files: ScormFiles,
  receiver: PackageReceiver,
): DeclaredHandler[] {
  return [
    implement(uploadScormPackage, async (ctx, { query, record }) => {
      const deps: CommandDeps = { models, audit: service.audit, actor: ctx.state.user };
      // The course's rule before the body is read: nobody uploads 300 MB to be told the course is not theirs.
      const course = await loadEditableCourse(models, deps.actor, query.courseId);
      let received: ReceivedPackage | null = null;
      try {
        received = await receiver.receive(ctx.req, ctx.res);
        const pkg = await storePackage(deps, files, course, received);
        record({
          code: 'scormPackage.uploaded',
          data: {
            title: pkg.title,
            version: pkg.version,
            scos: pkg.scos.length,
            bytes: received.size,
            course: course.title,
            packageId: String(pkg._id),
          },
          entityId: String(course._id),
        });
        const summary = presentScormPackage(pkg);
        if (query.mode !== 'course') return summary;
        const made = await importAsCourse(deps, course, pkg);
        const answer: ScormCourseUpload = {
          ...summary,
          modules: made.map(({ module, lessons }) => ({
            ...presentModuleOutline(module, lessons),
            lessons: lessons.map(presentLessonOutline),
          })),
        };
        return answer;
      } finally {
        await receiver.discard(received);
      }
    }),

    implement(launchScorm, async (ctx, { body }) => {
      const { pkg, sco } = await launchableSco(models, ctx.state.user, body.lessonId);
      const { token, expiresAt } = signLaunchToken(service.config.JWT_SECRET, {
        packageId: String(pkg._id),
        userId: ctx.state.user.id,
        portalOrigin: launchingOrigin(ctx),
      });
      const answer: ScormLaunch = {
        packageId: String(pkg._id),
        scoId: sco.id,
        version: pkg.version,
        url: launchUrl(token, sco.launch, service.config.SCORM_ORIGIN),
        expiresAt: expiresAt.toISOString(),
      };
      return answer;
    }),

    scormFileRoute(service, files),
  ];
}
