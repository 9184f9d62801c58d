import { pdfFonts, pdfText } from '@portal/devstack/pdf';
import { renderAct } from './pdf';

describe('renderAct (the anonymisation act)', () => {
  it('embeds its fonts as subsets that pdffonts recognises by their tag (ABCDEF+Name)', async () => {
    const act = await renderAct({
      title: 'Акт об обезличивании персональных данных',
      paragraphs: ['Основание: запрос субъекта персональных данных.', 'Изменено записей: 8.'],
      createdAt: new Date('2026-12-01T09:00:00Z'),
    });
    const fonts = await pdfFonts(act);
    expect(fonts.map((font) => font.name.replace(/^[A-Z]{6}\+/, ''))).toEqual(['DejaVuSerif-Bold', 'DejaVuSerif']);
    for (const font of fonts) {
      expect(font).toMatchObject({ embedded: true, subset: true, unicode: true });
      expect(font.name).toMatch(/^[A-Z]{6}\+DejaVuSerif/);
    }
    // Two subsets of one document have different tags.
    expect(new Set(fonts.map((font) => font.name.slice(0, 6))).size).toBe(2);
    expect((await pdfText(act)).replace(/\s+/g, ' ')).toContain('Изменено записей: 8.');
  });
});
