import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadPdf, loadedOnce } from './heavyLibraries';

/** DejaVu (npm `dejavu-fonts-ttf`): Cyrillic glyphs, embedded as a subset. Read once per process. */
export const loadSerifFonts = loadedOnce(async () => {
  const [regular, bold] = await Promise.all([
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf')),
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf')),
  ]);
  return { regular, bold };
});

/**
 * A subset's name starts with a tag of six capital letters and «+» (ISO 32000-1 §9.6.4): readers
 * (pdffonts, preflight checks) know a subset by it, and a tool merging documents does not take two
 * subsets of one font for the same font. pdf-lib names a subset `DejaVuSerif-1234`; the tag is
 * random, as it must differ between the subsets a merged file may hold.
 */
const subsetName = (font: string) =>
  `${Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('')}+${font}`;

/** The serif pair embedded in a document as tagged subsets (only the glyphs drawn travel). */
export async function embedSerifFonts(doc: PDFDocument): Promise<{ serif: PDFFont; serifBold: PDFFont }> {
  const { regular, bold } = await loadSerifFonts();
  const [serif, serifBold] = await Promise.all([
    doc.embedFont(regular, { subset: true, customName: subsetName('DejaVuSerif') }),
    doc.embedFont(bold, { subset: true, customName: subsetName('DejaVuSerif-Bold') }),
  ]);
  return { serif, serifBold };
}

/** Lines no wider than `width` at this size (a long text wraps instead of running off the page). */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export interface PdfAct {
  title: string;
  /** Paragraphs, each wrapped to the page; a new page starts when one is full. */
  paragraphs: string[];
  createdAt: Date;
}

/** A plain A4 document in Russian (an act, a statement): a bold title, then the paragraphs. */
export async function renderAct({ title, paragraphs, createdAt }: PdfAct): Promise<Buffer> {
  const { PDFDocument, fontkit, rgb } = await loadPdf();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(title);
  doc.setAuthor('Портал обучения');
  doc.setCreationDate(createdAt);
  const { serif, serifBold } = await embedSerifFonts(doc);
  const [width, height, margin] = [595, 842, 56];
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const ink = rgb(0.1, 0.1, 0.15);
  for (const line of wrapText(title, serifBold, 16, width - 2 * margin)) {
    page.drawText(line, { x: margin, y, size: 16, font: serifBold, color: ink });
    y -= 22;
  }
  y -= 10;
  for (const paragraph of paragraphs) {
    for (const line of wrapText(paragraph, serif, 11, width - 2 * margin)) {
      if (y < margin) {
        page = doc.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(line, { x: margin, y, size: 11, font: serif, color: ink });
      y -= 15;
    }
    y -= 8;
  }
  return Buffer.from(await doc.save());
}

/** Bytes kept in the store (a PDF): a lean read gives the driver's Binary, not a Buffer. */
export const storedBytes = (stored: Buffer | { buffer: Uint8Array }): Buffer =>
  Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer);
