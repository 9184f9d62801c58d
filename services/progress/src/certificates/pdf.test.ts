import { pdfWords, type PdfWord } from '@portal/devstack/pdf';
import { renderCertificate, type CertificateContent } from './pdf';

/** The border's inner edge (the rectangle at 24 pt from the page's edges, 3 pt wide), in pdftotext's coordinates. */
const INSIDE = { left: 25.5, right: 842 - 25.5, top: 25.5, bottom: 595 - 25.5 };

const content = (patch: Partial<CertificateContent>): CertificateContent => ({
  number: 'C-2026-ABCDEFGH',
  fullName: 'Иванов Иван Иванович',
  courseTitle: 'Охрана труда для руководителей',
  hours: 16,
  completedAt: new Date('2026-11-20T10:00:00Z'),
  verifyUrl: 'https://learn.example.ru/verify/C-2026-ABCDEFGH',
  issuer: { organization: 'АО «Северная верфь», учебный центр', signatory: 'Директор Е. В. Орлова' },
  ...patch,
});

/** The page's lines of text, top to bottom: words whose boxes share a top edge. */
function linesOf(words: PdfWord[]): PdfWord[][] {
  const lines = new Map<number, PdfWord[]>();
  for (const word of words) {
    const key = [...lines.keys()].find((y) => Math.abs(y - word.yMin) < 1) ?? word.yMin;
    lines.set(key, [...(lines.get(key) ?? []), word]);
  }
  return [...lines.entries()].sort(([a], [b]) => a - b).map(([, line]) => line.sort((a, b) => a.xMin - b.xMin));
}
const textOf = (line: PdfWord[]) => line.map((w) => w.text).join(' ');
const heightOf = (line: PdfWord[]) => line[0].yMax - line[0].yMin;

/** Every word inside the border, and no line of text over another. */
function expectLaidOut(words: PdfWord[]) {
  for (const word of words) {
    expect(word.xMin).toBeGreaterThan(INSIDE.left);
    expect(word.xMax).toBeLessThan(INSIDE.right);
    expect(word.yMin).toBeGreaterThan(INSIDE.top);
    expect(word.yMax).toBeLessThan(INSIDE.bottom);
  }
  const lines = linesOf(words);
  for (let i = 1; i < lines.length; i++) expect(lines[i][0].yMin).toBeGreaterThanOrEqual(lines[i - 1][0].yMax - 0.5);
}

/** The lines between «подтверждает, что» and «успешно прошёл(а) курс», and between that and «Объём». */
function blocks(words: PdfWord[]) {
  const lines = linesOf(words);
  const at = (start: string) => lines.findIndex((line) => textOf(line).startsWith(start));
  return {
    name: lines.slice(at('подтверждает') + 1, at('успешно')),
    title: lines.slice(at('успешно') + 1, at('Объём')),
  };
}

it('sets an ordinary name and title on one line each at their full size', async () => {
  const words = await pdfWords(await renderCertificate(content({})));
  expectLaidOut(words);
  const { name, title } = blocks(words);
  expect(name.map(textOf)).toEqual(['Иванов Иван Иванович']);
  expect(title.map(textOf)).toEqual(['«Охрана труда для руководителей»']);
  expect(heightOf(name[0])).toBeGreaterThan(heightOf(title[0]));
});

it('makes a long name smaller, then sets it on two lines, and a long title on up to three, all inside the border', async () => {
  const fullName = 'Константинопольская-Преображенская Александра-Виктория Константиновна-Владиславовна';
  const courseTitle =
    'Охрана труда и промышленная безопасность для руководителей и специалистов опасных производственных объектов, ' +
    'включая работы на высоте и в ограниченных пространствах';
  const longish = 'Константинопольский Александр Владиславович';

  const shrunk = blocks(await pdfWords(await renderCertificate(content({ fullName: longish }))));
  const ordinary = blocks(await pdfWords(await renderCertificate(content({}))));
  expect(shrunk.name.map(textOf)).toEqual([longish]);
  expect(heightOf(shrunk.name[0])).toBeLessThan(heightOf(ordinary.name[0]));

  const words = await pdfWords(await renderCertificate(content({ fullName, courseTitle })));
  expectLaidOut(words);
  const { name, title } = blocks(words);
  expect(name).toHaveLength(2);
  expect(name.map(textOf).join(' ')).toBe(fullName);
  expect(title.length).toBeGreaterThanOrEqual(2);
  expect(title.length).toBeLessThanOrEqual(3);
  expect(title.map(textOf).join(' ')).toBe(`«${courseTitle}»`);
  // The issuer, the signature line and the check stay below, whole.
  const text = linesOf(words).map(textOf).join('\n');
  expect(text).toContain('Выдан: АО «Северная верфь», учебный центр');
  expect(text).toContain('Дата прохождения: 20 ноября 2026 г.');
});

it('keeps even a name and a title of the longest allowed length (200 characters, one without a space) inside the border, whole', async () => {
  const fullName = 'Ж'.repeat(200);
  const courseTitle = `${'Безопасность '.repeat(15)}труда`.slice(0, 200);
  const words = await pdfWords(await renderCertificate(content({ fullName, courseTitle })));
  expectLaidOut(words);
  const { name, title } = blocks(words);
  expect(name.length).toBeLessThanOrEqual(2);
  expect(name.map(textOf).join('')).toBe(fullName);
  expect(title.length).toBeLessThanOrEqual(3);
  expect(title.map(textOf).join(' ')).toBe(`«${courseTitle}»`);
});
