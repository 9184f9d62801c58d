import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** DejaVu (npm `dejavu-fonts-ttf`): Cyrillic glyphs, embedded as a subset. Read once per process. */
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | null = null;
const loadFonts = () =>
  (fonts ??= Promise.all([
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf')),
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf')),
  ]).then(([regular, bold]) => ({ regular, bold })));

export interface CertificateContent {
  number: string;
  fullName: string;
  courseTitle: string;
  hours: number;
  completedAt: Date;
  /** Where anyone checks it: PUBLIC_URL/verify/{number}. */
  verifyUrl: string;
}

const hoursForms = new Intl.PluralRules('ru-RU');
const HOUR_FORMS: Record<string, string> = { one: 'час', few: 'часа', many: 'часов', other: 'часа' };
/** «1 час», «3 часа», «16 часов», «1,5 часа». */
export const hoursText = (hours: number): string =>
  `${hours.toLocaleString('ru-RU')} ${HOUR_FORMS[hoursForms.select(hours)] ?? 'часов'}`;

const dateText = (at: Date) =>
  at.toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow', day: 'numeric', month: 'long', year: 'numeric' });

/** Lines no wider than `width` at this size (a long course title wraps instead of running off the page). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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

function centered(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.15)) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font, color });
}

/** An A4 landscape certificate in Russian (pdf-lib, the font embedded). */
export async function renderCertificate(c: CertificateContent): Promise<Buffer> {
  const { regular, bold } = await loadFonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`Сертификат ${c.number}`);
  doc.setAuthor('Портал обучения');
  doc.setCreationDate(c.completedAt);
  const serif = await doc.embedFont(regular, { subset: true });
  const serifBold = await doc.embedFont(bold, { subset: true });
  const page = doc.addPage([842, 595]);
  const accent = rgb(0.16, 0.32, 0.62);
  page.drawRectangle({ x: 24, y: 24, width: 794, height: 547, borderColor: accent, borderWidth: 3 });

  centered(page, 'СЕРТИФИКАТ', 470, serifBold, 40, accent);
  centered(page, `№ ${c.number}`, 440, serif, 14);
  centered(page, 'подтверждает, что', 395, serif, 16);
  centered(page, c.fullName, 355, serifBold, 28);
  centered(page, 'успешно прошёл(а) курс', 315, serif, 16);
  let y = 280;
  for (const line of wrap(`«${c.courseTitle}»`, serifBold, 22, 700).slice(0, 3)) {
    centered(page, line, y, serifBold, 22);
    y -= 28;
  }
  centered(page, `Объём: ${hoursText(c.hours)}`, y - 10, serif, 14);
  centered(page, `Дата прохождения: ${dateText(c.completedAt)}`, y - 32, serif, 14);
  centered(page, `Проверить подлинность: ${c.verifyUrl}`, 60, serif, 11, rgb(0.35, 0.35, 0.4));
  return Buffer.from(await doc.save());
}
