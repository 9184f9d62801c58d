import { Types } from 'mongoose';
import { op } from '@portal/service-kit';
import type { ContentModels } from '../models';
import type { BlockDoc } from '../models/block';
import { readContentBlocks } from '../presenters/block';
import { fromTheStart, type SweepCursor } from '../uploads/maintenance';
import type { ScormFiles } from './files';

/** Package files looked at per sweep: a sweep stays short, the next goes on from where it stopped. */
const FILES_PER_SWEEP = 1000;

/** The package ids some lesson's 'scorm' block names. */
async function referencedPackages(models: ContentModels): Promise<Set<string>> {
  const lessons = await models.blocks
    .find({ type: 'LESSON', hasScorm: true })
    .select({ content: 1 })
    .lean<Pick<BlockDoc, 'content'>[]>();
  const ids = new Set<string>();
  for (const lesson of lessons)
    for (const block of readContentBlocks(lesson.content))
      if (block.type === 'scorm' && block.content.packageId) ids.add(block.content.packageId);
  return ids;
}

/**
 * Packages no lesson names any more (the lesson or course deleted, the block replaced), and files
 * of uploads that never got their document (a replica stopped midway), once older than `graceMs`:
 * the author's editor may not have saved the block that names a fresh package yet. The files are
 * read FILES_PER_SWEEP keys a sweep, going on from `cursor`. Answers the package ids removed.
 */
export async function sweepScormPackages(
  models: ContentModels,
  files: ScormFiles,
  graceMs: number,
  now = Date.now(),
  cursor: SweepCursor = fromTheStart,
  filesPerSweep = FILES_PER_SWEEP,
): Promise<string[]> {
  const before = new Date(now - graceMs);
  const referenced = await referencedPackages(models);
  const removed: string[] = [];
  const stale = await models.scormPackages
    .find({ createdAt: op({ $lt: before }) })
    .select({ _id: 1 })
    .lean<{ _id: Types.ObjectId }[]>();
  for (const { _id } of stale) {
    const id = String(_id);
    if (referenced.has(id)) continue;
    await files.remove(id);
    await models.scormPackages.deleteOne({ _id });
    removed.push(id);
  }
  // Files whose package has no document: an upload cut off between its files and its document.
  const { packages: withFiles, lastKey } = await files.packagesWithFiles(await cursor.read(), filesPerSweep);
  await cursor.write(lastKey);
  const known = new Set(
    (
      await models.scormPackages
        .find({ _id: op({ $in: [...withFiles.keys()].filter((id) => Types.ObjectId.isValid(id)) }) })
        .select({ _id: 1 })
        .lean<{ _id: Types.ObjectId }[]>()
    ).map((p) => String(p._id)),
  );
  for (const [id, newest] of withFiles) {
    if (known.has(id) || newest >= before) continue;
    await files.remove(id);
    removed.push(id);
  }
  return removed;
}
