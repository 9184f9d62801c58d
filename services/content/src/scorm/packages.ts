import { Types } from 'mongoose';
import { CONTENT_MSG, SCORM_MSG, type ContentBlockInput, type ScormLessonBinding, type ScormSco } from '@portal/contracts';
import { badRequest, notFound, type Principal } from '@portal/service-kit';
import { createBlock } from '../commands/blocks';
import { loadVisibleCourse } from '../commands/courses';
import type { CommandDeps } from '../commands/deps';
import { readBlockId } from '../commands/ids';
import type { ContentModels } from '../models';
import { learnerSeesVersionLesson, publishedViews, readsPublished, versionLesson } from '../versions/published';
import type { BlockDoc } from '../models/block';
import type { CourseDoc } from '../models/course';
import type { ScormPackageDoc } from '../models/scormPackage';
import { canSeeBlock } from '../policies/content';
import { readContentBlocks } from '../presenters/block';
import type { ScormFiles } from './files';
import type { ReceivedPackage } from './receive';
import { checkPackage } from './validate';
import type { ZipLimits } from './zip';

/** A lesson made of a package: the modules and lessons the course gained. */
export interface ImportedModule {
  module: BlockDoc;
  lessons: BlockDoc[];
}

/**
 * Checks a received package and stores it for a course: every file in GridFS, then its document.
 * Nothing is stored for a refused package, and a failure midway removes what was written.
 */
export async function storePackage(
  deps: CommandDeps,
  files: ScormFiles,
  course: CourseDoc,
  received: ReceivedPackage,
  limits?: ZipLimits,
): Promise<ScormPackageDoc> {
  const checked = await checkPackage(received.path, limits);
  const _id = new Types.ObjectId();
  try {
    await files.put(String(_id), checked);
    const { manifest } = checked;
    await deps.models.scormPackages.create({
      _id,
      courseId: course._id,
      title: manifest.title.slice(0, 1000),
      version: manifest.version,
      edition: manifest.edition,
      scos: manifest.scos,
      files: checked.zip.entries.length,
      bytes: checked.bytes,
      originalName: received.originalName,
      uploadedBy: deps.actor.id,
    });
  } catch (err) {
    await files.remove(String(_id));
    await deps.models.scormPackages.deleteOne({ _id });
    throw err;
  } finally {
    checked.zip.close();
  }
  return (await deps.models.scormPackages.findById(_id).lean<ScormPackageDoc>()) as ScormPackageDoc;
}

/** A lesson's one block: the SCO to play. */
const scormBlockOf = (pkg: ScormPackageDoc, sco: ScormSco): ContentBlockInput => ({
  type: 'scorm',
  content: { packageId: String(pkg._id), scoId: sco.id, title: sco.title.slice(0, 1000), version: pkg.version },
});

/** Module titles are limited as every block title is. */
const titled = (title: string) => title.trim().slice(0, 300) || 'Без названия';

/**
 * The package's organization as the course's modules and lessons: each top-level item a module (SCOs
 * at the top level, as in a single-level organization, go to one module titled as the organization),
 * each SCO a published lesson holding one 'scorm' block, after the course's own modules.
 */
export async function importAsCourse(deps: CommandDeps, course: CourseDoc, pkg: ScormPackageDoc): Promise<ImportedModule[]> {
  const groups: Array<{ title: string; scos: ScormSco[] }> = [];
  for (const sco of pkg.scos) {
    const title = sco.path[0] ?? pkg.title;
    const last = groups[groups.length - 1];
    if (last && last.title === title && sco.path.length > 0 === last.scos[0]!.path.length > 0) last.scos.push(sco);
    else groups.push({ title, scos: [sco] });
  }
  const made: ImportedModule[] = [];
  for (const group of groups) {
    const module = await createBlock(deps, { type: 'MODULE', courseId: String(course._id), title: titled(group.title) });
    const lessons: BlockDoc[] = [];
    for (const sco of group.scos) {
      lessons.push(
        await createBlock(deps, {
          type: 'LESSON',
          courseId: String(course._id),
          moduleId: String(module._id),
          title: titled(sco.title),
          status: 'published',
          content: [scormBlockOf(pkg, sco)],
        } as Parameters<typeof createBlock>[1]),
      );
    }
    made.push({ module, lessons });
  }
  return made;
}

/** A lesson, its course and its first SCORM block. */
async function scormLesson(models: ContentModels, rawLessonId: unknown) {
  const lesson = await models.blocks.findById(readBlockId(rawLessonId, 'lessonId')).lean<BlockDoc>();
  if (!lesson || lesson.type !== 'LESSON') throw notFound(CONTENT_MSG.blockNotFound);
  return withScormBlock(lesson);
}

/** A lesson and its SCORM block, if it has one. */
function withScormBlock(lesson: BlockDoc) {
  const block = readContentBlocks(lesson.content).find((b) => b.type === 'scorm');
  return { lesson, block: block?.type === 'scorm' ? block : null };
}

/** The package a lesson's block names, with the SCO to open (the block's, or the package's first). */
async function packageOf(models: ContentModels, lesson: BlockDoc, content: { packageId?: string; scoId?: string }) {
  const pkg =
    content.packageId && Types.ObjectId.isValid(content.packageId)
      ? await models.scormPackages.findById(content.packageId).lean<ScormPackageDoc>()
      : null;
  // A package belongs to the course it was uploaded to: a block copied elsewhere does not open it.
  if (!pkg || !pkg.courseId.equals(lesson.courseId)) throw notFound(SCORM_MSG.packageNotFound);
  const sco = pkg.scos.find((s) => s.id === content.scoId) ?? pkg.scos[0];
  if (!sco) throw notFound(SCORM_MSG.packageNotFound);
  return { pkg, sco };
}

/**
 * What a person may open for study: a lesson they see (its course visible to them, the lesson
 * published or they read the course as its author) whose block names a package of that course.
 */
export async function launchableSco(models: ContentModels, user: Principal, rawLessonId: unknown) {
  const live = await scormLesson(models, rawLessonId);
  const course = await loadVisibleCourse(models, user, String(live.lesson.courseId));
  // A learner of a course with a published version opens the package the version's lesson names.
  const view = readsPublished(user, course) ? await publishedViews(models).current(course) : null;
  const found = view ? await versionLesson(models, course._id, view, String(live.lesson._id)) : null;
  if (view && (!found || !learnerSeesVersionLesson(view, String(live.lesson._id)))) throw notFound(CONTENT_MSG.blockNotFound);
  const { lesson, block } = found ? withScormBlock(found.block) : live;
  if (!canSeeBlock(user, course, lesson)) throw notFound(CONTENT_MSG.blockNotFound);
  if (!block) throw badRequest(SCORM_MSG.lessonHasNoPackage, 'lessonId');
  return packageOf(models, lesson, block.content);
}

/** For the progress service: the SCO a lesson plays and its attempt setting; 404 without one. */
export async function lessonBinding(models: ContentModels, rawLessonId: unknown): Promise<ScormLessonBinding> {
  const { lesson, block } = await scormLesson(models, rawLessonId);
  if (!block) throw notFound(SCORM_MSG.lessonHasNoPackage);
  const { pkg, sco } = await packageOf(models, lesson, block.content);
  return {
    courseId: String(lesson.courseId),
    lessonId: String(lesson._id),
    lessonTitle: lesson.title,
    packageId: String(pkg._id),
    scoId: sco.id,
    version: pkg.version,
    allowNewAttempt: block.content.allowNewAttempt ?? false,
  };
}
