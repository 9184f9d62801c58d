/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { lightTheme } from './theme';
import { RichTextView, sanitizeRichHtml } from './richText';

describe('sanitizeRichHtml (DOMPurify in the editor and the player)', () => {
  it('removes scripts and on* attributes', () => {
    expect(sanitizeRichHtml('<p onmouseover="steal()">Привет<script>alert(1)</script></p>')).toBe('<p>Привет</p>');
    expect(sanitizeRichHtml('<img src=x onerror=alert(1)><p>Текст</p>')).toBe('<p>Текст</p>');
  });

  it('removes javascript: links and opens the others beside the lesson', () => {
    expect(sanitizeRichHtml('<a href="javascript:alert(1)">ссылка</a>')).toBe('<a>ссылка</a>');
    expect(sanitizeRichHtml('<a href="https://example.ru" onclick="x()">сайт</a>')).toBe(
      '<a href="https://example.ru" target="_blank" rel="noopener noreferrer nofollow">сайт</a>',
    );
  });

  it('drops styles and classes but keeps bold, lists, headings and quotes', () => {
    expect(
      sanitizeRichHtml(
        '<h3 class="x" style="color:red">Раздел</h3><ul><li><strong>раз</strong></li></ul><blockquote>ц</blockquote>',
      ),
    ).toBe('<h3>Раздел</h3><ul><li><strong>раз</strong></li></ul><blockquote>ц</blockquote>');
  });
});

describe('RichTextView', () => {
  const view = (content: { text: string; html?: string }) =>
    render(
      <ThemeProvider theme={lightTheme}>
        <RichTextView content={content} />
      </ThemeProvider>,
    );

  it('shows rich text as structure, with nothing that runs', () => {
    const { container } = view({ text: 'x', html: '<h2>Итоги</h2><ol><li>первое</li></ol><script>window.hacked = 1</script>' });
    expect(screen.getByRole('heading', { name: 'Итоги' })).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe('первое');
    expect(container.querySelector('script')).toBeNull();
  });

  it('still shows a plain-text block as it was written', () => {
    view({ text: 'Строка один\nСтрока два' });
    expect(screen.getByText(/Строка один/).textContent).toBe('Строка один\nСтрока два');
  });
});
