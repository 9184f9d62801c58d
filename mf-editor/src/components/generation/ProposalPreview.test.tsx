import { renderToStaticMarkup } from 'react-dom/server';
import { ThemeProvider } from 'styled-components';
import { darkTheme, lightTheme } from '@portal/ui';
import { previewOfProposal } from '../../model/proposal';
import { ProposalPreview } from './ProposalPreview';

const render = (proposal: Parameters<typeof previewOfProposal>[0], theme = lightTheme) =>
  renderToStaticMarkup(
    <ThemeProvider theme={theme}>
      <ProposalPreview preview={previewOfProposal(proposal)} />
    </ThemeProvider>,
  );
/** The markup without tags: what a reader gets, in order. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('the proposal preview', () => {
  test('a lesson shows its title, headings, texts and media placeholders in order', () => {
    const html = render({
      kind: 'lesson',
      title: 'Практика',
      blocks: [
        { type: 'heading', text: 'Задание' },
        { type: 'text', text: 'Шаг 1.\nШаг 2.' },
        { type: 'video', suggestion: 'Разбор на 3 минуты' },
      ],
    });

    expect(html).toContain('<h3>Практика</h3>');
    expect(html).toContain('<h4>Задание</h4>');
    expect(textOf(html)).toBe('|Практика|Задание|Шаг 1.\nШаг 2.|Видео| (место для материала): Разбор на 3 минуты|');
  });

  test('generated text is shown as text, never as markup', () => {
    const html = render(
      { kind: 'lesson', title: '<b>x</b>', blocks: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] },
      darkTheme,
    );

    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('a quiz marks the correct options in words, not only by colour', () => {
    const html = render({
      kind: 'quiz',
      title: 'Проверка',
      questions: [
        {
          type: 'multiple_choice',
          question: 'Что верно?',
          options: ['первое', 'второе', 'третье'],
          correctAnswers: [0, 2],
          explanation: 'Первое и третье.',
        },
      ],
    });

    const text = textOf(html);
    expect(text).toContain('первое| — правильный ответ');
    expect(text).toContain('третье| — правильный ответ');
    expect(text).not.toContain('второе| — правильный ответ');
    expect(text).toContain('Пояснение:| Первое и третье.');
  });

  test('a module lists every lesson with its blocks', () => {
    const html = render({
      kind: 'module',
      title: 'Модуль',
      description: 'Описание модуля',
      lessons: [
        { title: 'Урок 1', description: '', blocks: [{ type: 'text', text: 'один' }] },
        { title: 'Урок 2', description: '', blocks: [{ type: 'image', suggestion: 'схема' }] },
      ],
    });

    expect(textOf(html)).toBe('|Модуль|Описание модуля|Урок 1|один|Урок 2|Изображение| (место для материала): схема|');
  });
});
