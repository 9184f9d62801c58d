import type { Color, PDFFont, PDFPage } from 'pdf-lib';
import { embedSerifFonts, loadPdf, wrapText } from '@portal/service-kit';
import { ruForm } from '@portal/contracts';

export interface CertificateContent {
  number: string;
  fullName: string;
  courseTitle: string;
  hours: number;
  completedAt: Date;
  /** Where anyone checks it: PUBLIC_URL/verify/{number}. */
  verifyUrl: string;
  issuer: CertificateIssuer;
  /** What was completed: a course (the default) or a learning program of several courses. */
  subject?: 'course' | 'program';
}

/** Who issues the portal's certificates (CERTIFICATE_ISSUER or SITE_NAME) and who signs them (CERTIFICATE_SIGNATORY). */
export interface CertificateIssuer {
  organization: string;
  signatory: string;
}

/** «1 час», «3 часа», «16 часов», «1,5 часа». */
export const hoursText = (hours: number): string =>
  `${hours.toLocaleString('ru-RU')} ${ruForm(hours, { one: 'час', few: 'часа', many: 'часов' })}`;

const dateText = (at: Date) =>
  at.toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow', day: 'numeric', month: 'long', year: 'numeric' });

function centered(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color: Color) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font, color });
}

/** The width a line of the certificate may take: inside the border (24 pt from the edges), with a margin. */
export const CERTIFICATE_TEXT_WIDTH = 700;

/** How a name or a title is set: a size, and at most a few lines. */
export interface FittedText {
  size: number;
  lines: string[];
}

/** Words split where needed so that none is wider than `width` at `size` (a name without spaces). */
const wrapWithin = (text: string, font: PDFFont, size: number, width: number): string[] =>
  wrapText(text, font, size, width).flatMap((line) => {
    if (font.widthOfTextAtSize(line, size) <= width) return [line];
    const pieces: string[] = [];
    let [piece, pieceWidth] = ['', 0];
    for (const char of line) {
      const charWidth = font.widthOfTextAtSize(char, size);
      if (piece && pieceWidth + charWidth > width) {
        pieces.push(piece);
        [piece, pieceWidth] = [char, charWidth];
      } else [piece, pieceWidth] = [piece + char, pieceWidth + charWidth];
    }
    return [...pieces, piece];
  });

/**
 * Sets `text` within `width`: on one line at the largest size from `max` down to `min`; when it
 * does not fit at `min`, on up to `maxLines` lines at `min`; only a text that even then overflows
 * (near the 200-character limit of names and titles) is set smaller still.
 */
export function fitText(
  text: string,
  font: PDFFont,
  { max, min, width, maxLines }: { max: number; min: number; width: number; maxLines: number },
): FittedText {
  for (let size = max; size >= min; size -= 1) if (font.widthOfTextAtSize(text, size) <= width) return { size, lines: [text] };
  for (let size = min; size >= 4; size -= 0.5) {
    const lines = wrapWithin(text, font, size, width);
    if (lines.length <= maxLines) return { size, lines };
  }
  return { size: 4, lines: wrapWithin(text, font, 4, width) };
}

/** An A4 landscape certificate in Russian (pdf-lib, the font embedded). */
export async function renderCertificate(c: CertificateContent): Promise<Buffer> {
  const { PDFDocument, fontkit, rgb } = await loadPdf();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`Сертификат ${c.number}`);
  doc.setAuthor(c.issuer.organization);
  doc.setCreationDate(c.completedAt);
  const { serif, serifBold } = await embedSerifFonts(doc);
  const page = doc.addPage([842, 595]);
  const accent = rgb(0.16, 0.32, 0.62);
  const ink = rgb(0.1, 0.1, 0.15);
  page.drawRectangle({ x: 24, y: 24, width: 794, height: 547, borderColor: accent, borderWidth: 3 });

  centered(page, 'СЕРТИФИКАТ', 470, serifBold, 40, accent);
  centered(page, `№ ${c.number}`, 440, serif, 14, ink);
  centered(page, 'подтверждает, что', 395, serif, 16, ink);
  // A long name or title is made smaller, then set on two lines (three for a title), and what
  // follows moves down: nothing crosses the border, nothing is cut.
  const name = fitText(c.fullName, serifBold, { max: 28, min: 18, width: CERTIFICATE_TEXT_WIDTH, maxLines: 2 });
  let y = 383 - name.size;
  for (const line of name.lines) {
    centered(page, line, y, serifBold, name.size, ink);
    y -= name.size * 1.2;
  }
  y += name.size * 1.2;
  centered(
    page,
    c.subject === 'program' ? 'успешно прошёл(а) программу обучения' : 'успешно прошёл(а) курс',
    y - 40,
    serif,
    16,
    ink,
  );
  const title = fitText(`«${c.courseTitle}»`, serifBold, { max: 22, min: 16, width: CERTIFICATE_TEXT_WIDTH, maxLines: 3 });
  y -= 75;
  for (const line of title.lines) {
    centered(page, line, y, serifBold, title.size, ink);
    y -= title.size * 1.27;
  }
  if (c.subject !== 'program') centered(page, `Объём: ${hoursText(c.hours)}`, y - 10, serif, 14, ink);
  centered(page, `Дата прохождения: ${dateText(c.completedAt)}`, y - 32, serif, 14, ink);
  let issuerY = 135;
  for (const line of wrapText(`Выдан: ${c.issuer.organization}`, serif, 13, 700).slice(0, 2)) {
    centered(page, line, issuerY, serif, 13, ink);
    issuerY -= 17;
  }
  centered(page, `______________________  ${c.issuer.signatory}`, 95, serif, 12, ink);
  centered(page, `Проверить подлинность: ${c.verifyUrl}`, 60, serif, 11, rgb(0.35, 0.35, 0.4));
  return Buffer.from(await doc.save());
}
