import { Readable } from 'node:stream';
import JSZip from 'jszip';
import type { CourseExport } from './collect';
import { PLAYER_SCRIPT, PLAYER_STYLE } from './player';
import { LAUNCH_FILE, PLAYER_SCRIPT_FILE, PLAYER_STYLE_FILE, renderLaunchPage, renderManifest, zipPathOf } from './render';

export const MANIFEST_FILE = 'imsmanifest.xml';

/** A file's bytes opened only when the archive reaches it: one GridFS read at a time, however many files. */
const openedWhenRead = (open: () => NodeJS.ReadableStream): Readable =>
  Readable.from(
    (async function* () {
      yield* open();
    })(),
  );

/**
 * A course as a SCORM 1.2 zip, written as it is read: the portal's files are streamed from GridFS
 * into the archive one after another and the archive to the caller (`streamFiles`: no file is held
 * whole in memory). Media is stored as it is (already compressed); the pages are deflated.
 */
export function buildScormPackage(data: CourseExport): NodeJS.ReadableStream {
  const zip = new JSZip();
  // Dated by the course's last change, never by the clock, and no implicit folder entries (they would
  // be dated now): the same course gives the same bytes, so a download can be compared or cached.
  const entry = { date: data.changedAt, createFolders: false };
  const files = [...new Map([...data.files.values()].map((f) => [f.name, f])).values()];
  const paths = [LAUNCH_FILE, PLAYER_SCRIPT_FILE, PLAYER_STYLE_FILE, ...files.map(zipPathOf)];
  zip.file(MANIFEST_FILE, renderManifest(data, paths), entry);
  zip.file(LAUNCH_FILE, renderLaunchPage(data), entry);
  zip.file(PLAYER_SCRIPT_FILE, PLAYER_SCRIPT, entry);
  zip.file(PLAYER_STYLE_FILE, PLAYER_STYLE, entry);
  for (const file of files)
    zip.file(zipPathOf(file), openedWhenRead(file.stream), { ...entry, binary: true, compression: 'STORE' });
  return zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE' });
}
