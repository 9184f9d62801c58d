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
  const files = [...new Map([...data.files.values()].map((f) => [f.name, f])).values()];
  const paths = [LAUNCH_FILE, PLAYER_SCRIPT_FILE, PLAYER_STYLE_FILE, ...files.map(zipPathOf)];
  zip.file(MANIFEST_FILE, renderManifest(data, paths));
  zip.file(LAUNCH_FILE, renderLaunchPage(data));
  zip.file(PLAYER_SCRIPT_FILE, PLAYER_SCRIPT);
  zip.file(PLAYER_STYLE_FILE, PLAYER_STYLE);
  for (const file of files) zip.file(zipPathOf(file), openedWhenRead(file.stream), { binary: true, compression: 'STORE' });
  return zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE' });
}
