import type { Color, PDFFont, PDFPage } from 'pdf-lib';
import { embedSerifFonts, loadPdf, wrapText } from '@portal/service-kit';

export interface CertificateContent {
  number: string;
  fullName: string;
  courseTitle: string;
  hours: number;
  completedAt: Date;
  /** Where anyone checks it: PUBLIC_URL/verify/{number}. */
  verifyUrl: string;
  issuer: CertificateIssuer;
}

/** Who issues the portal's certificates (CERTIFICATE_ISSUER or SITE_NAME) and who signs them (CERTIFICATE_SIGNATORY). */
export interface CertificateIssuer {
  organization: string;
  signatory: string;
}

const hoursForms = new Intl.PluralRules('ru-RU');
const HOUR_FORMS: Record<string, string> = { one: 'час', few: 'часа', many: 'часов', other: 'часа' };
/** «1 час», «3 часа», «16 часов», «1,5 часа». */
export const hoursText = (hours: number): string =>
  `${hours.toLocaleString('ru-RU')} ${HOUR_FORMS[hoursForms.select(hours)] ?? 'часов'}`;

const dateText = (at: Date) =>
  at.toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow', day: 'numeric', month: 'long', year: 'numeric' });

function centered(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color: Color) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font, color });
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
  centered(page, c.fullName, 355, serifBold, 28, ink);
  centered(page, 'успешно прошёл(а) курс', 315, serif, 16, ink);
  let y = 280;
  for (const line of wrapText(`«${c.courseTitle}»`, serifBold, 22, 700).slice(0, 3)) {
    centered(page, line, y, serifBold, 22, ink);
    y -= 28;
  }
  centered(page, `Объём: ${hoursText(c.hours)}`, y - 10, serif, 14, ink);
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
