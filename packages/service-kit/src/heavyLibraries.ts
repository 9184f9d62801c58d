/**
 * The libraries only a few requests use, loaded at their first use instead of with the kit: every
 * service, and every test file that starts one, loads the kit, and exceljs alone takes about 0.4 s
 * to load, pdf-lib with its font engine 0.3 s. Each is loaded once per process; a failed load is
 * tried again at the next use.
 */

/** A load run once per process and shared by every caller; a failure is tried again at the next call. */
export function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
}

/** exceljs, for spreadsheets read and written (imports, exports). */
export const loadExcel = loadedOnce(async () => (await import('exceljs')).default);

/** pdf-lib and the font engine it embeds Cyrillic fonts with, for PDF documents. */
export const loadPdf = loadedOnce(async () => {
  const [pdf, fontkit] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  return { ...pdf, fontkit: fontkit.default };
});
