import { richHtmlToText, sanitizeRichHtml } from './richText';

describe('sanitizeRichHtml (the content service keeps only rich text)', () => {
  it('removes scripts, styles and on* attributes, keeping the words', () => {
    expect(sanitizeRichHtml('<p onclick="steal()">Привет<script>alert(1)</script></p><style>p{}</style>')).toBe('<p>Привет</p>');
    expect(sanitizeRichHtml('<img src=x onerror=alert(1)><p>Текст</p>')).toBe('<p>Текст</p>');
    expect(sanitizeRichHtml('<iframe src="https://evil.example"></iframe><svg onload=alert(1)></svg>')).toBe('');
  });

  it('drops javascript: and data: links but keeps http(s) and mailto', () => {
    expect(sanitizeRichHtml('<a href="javascript:alert(1)">ссылка</a>')).toBe('<a>ссылка</a>');
    expect(sanitizeRichHtml('<a href=" JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichHtml('<a href="data:text/html,<script>1</script>">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichHtml('<a href="https://example.ru/a?b=1" target="_blank" style="color:red">x</a>')).toBe(
      '<a href="https://example.ru/a?b=1">x</a>',
    );
    expect(sanitizeRichHtml('<a href="mailto:hr@example.ru">почта</a>')).toBe('<a href="mailto:hr@example.ru">почта</a>');
  });

  it('keeps the structure pasted from Word or Google Docs and drops their styles and classes', () => {
    const word =
      '<h1 class="MsoTitle" style="mso-line-height-rule:exactly">Правила</h1><p class="MsoNormal"><b><span style="font-size:14pt">Важно</span></b> и <i>курсив</i><o:p></o:p></p><ul><li style="mso-list:l0">один</li></ul><blockquote>цитата</blockquote>';
    expect(sanitizeRichHtml(word)).toBe(
      '<h2>Правила</h2><p><strong>Важно</strong> и <em>курсив</em></p><ul><li>один</li></ul><blockquote>цитата</blockquote>',
    );
  });
});

describe('richHtmlToText (the plain rendition kept as content.text)', () => {
  it('one line a paragraph, heading or list item, entities decoded', () => {
    expect(
      richHtmlToText('<h2>Заголовок</h2><p><strong>Жирный</strong> &amp; обычный</p><ol><li>раз</li><li>два</li></ol>'),
    ).toBe('Заголовок\nЖирный & обычный\n• раз\n• два');
    expect(richHtmlToText('<blockquote><p>Цитата</p></blockquote><p>строка<br>вторая</p>')).toBe('Цитата\nстрока\nвторая');
    // TipTap writes a list item's text in a paragraph of its own; an empty item is no line.
    expect(richHtmlToText('<ul><li><p>заявление</p></li><li><p>согласование</p></li><li><p></p></li></ul><p>Итог</p>')).toBe(
      '• заявление\n• согласование\nИтог',
    );
  });
});
