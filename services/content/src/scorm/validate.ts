import { SCORM_LIMITS, SCORM_MSG, formatMessage } from '@portal/contracts';
import { badRequest } from '@portal/service-kit';
import { hrefToPath, parseManifest, type ScormManifest } from './manifest';
import { PackageZip, type ZipLimits } from './zip';

const MANIFEST = 'imsmanifest.xml';

/** A package that passed every check, its archive still open for storing (close it after). */
export interface CheckedPackage {
  zip: PackageZip;
  manifest: ScormManifest;
  /** Unpacked bytes, counted while inflating. */
  bytes: number;
}

/**
 * Everything a package is checked for before anything of it is stored: a whole zip, the limits on
 * files, sizes and compression (declared and counted), safe paths and no links, imsmanifest.xml at
 * the root, a supported version, and every file the manifest names present. Each refusal is a
 * Russian 400 (413 for sizes).
 */
export async function checkPackage(file: string, limits: ZipLimits = SCORM_LIMITS): Promise<CheckedPackage> {
  const zip = await PackageZip.open(file, limits);
  try {
    const byPath = new Map(zip.entries.map((e) => [e.path, e]));
    const manifestEntry = byPath.get(MANIFEST);
    if (!manifestEntry) {
      const nested = zip.entries.find((e) => e.path.toLowerCase().endsWith(`/${MANIFEST}`));
      if (nested)
        throw badRequest(
          formatMessage(SCORM_MSG.manifestInSubfolder, { folder: nested.path.slice(0, -MANIFEST.length - 1) }),
          'file',
        );
      throw badRequest(SCORM_MSG.noManifest, 'file');
    }
    const total = { bytes: 0 };
    const xml = await zip.readAll(manifestEntry, total, limits.maxManifestBytes, () =>
      badRequest(formatMessage(SCORM_MSG.manifestInvalid, { reason: 'файл слишком большой' }), 'file'),
    );
    const manifest = parseManifest(xml.toString('utf8'));
    const missing = [...manifest.referenced, ...manifest.scos.map((s) => hrefToPath(s.launch))].find((p) => !byPath.has(p));
    if (missing) throw badRequest(formatMessage(SCORM_MSG.missingFile, { path: missing }), 'file');
    // The real bytes, not the headers': a lying header is caught here, before anything is stored.
    await zip.readThrough(manifestEntry, total);
    return { zip, manifest, bytes: total.bytes };
  } catch (err) {
    zip.close();
    throw err;
  }
}
