import { draftQuizSchema } from '@portal/contracts';
import { parseModelJson, stripFences } from './parse';
import { outlineSchema } from './schemas';

const outline = {
  title: 'Охрана труда',
  description: 'Курс',
  modules: [{ title: 'Введение', description: '', lessonTitles: ['О курсе'] }],
};

describe('reading a model answer', () => {
  it('strips a Markdown fence with or without a language tag and words around it', () => {
    expect(stripFences('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripFences('Вот ответ:\n```\n{"a":1}\n```\nГотово.')).toBe('{"a":1}');
    expect(stripFences('  {"a":1}  ')).toBe('{"a":1}');
  });

  it('accepts fenced JSON that matches the schema and applies its defaults', () => {
    const result = parseModelJson(`\`\`\`json\n${JSON.stringify(outline)}\n\`\`\``, outlineSchema);
    expect(result).toEqual({ ok: true, value: outline });
  });

  it('reports invalid JSON as one problem instead of throwing', () => {
    const result = parseModelJson('{"title": "Курс", modules: [', outlineSchema);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([expect.stringMatching(/^Ответ не является корректным JSON/)]);
  });

  it('reports an empty answer', () => {
    const result = parseModelJson('   ', outlineSchema);
    expect(result).toEqual({ ok: false, problems: ['Ответ пуст: нужен один JSON-объект'] });
  });

  it('lists schema problems with their paths', () => {
    const result = parseModelJson(JSON.stringify({ title: '', modules: [{ title: 'М', lessonTitles: [] }] }), outlineSchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^title: /), expect.stringMatching(/^modules\.0\.lessonTitles: /)]),
    );
  });

  it('refuses a quiz whose single choice has two correct answers or an answer out of range', () => {
    const quiz = {
      title: 'Квиз',
      questions: [
        { type: 'single_choice', question: 'Что?', options: ['а', 'б'], correctAnswers: [0, 1], explanation: 'Потому что' },
        { type: 'multiple_choice', question: 'Что ещё?', options: ['а', 'б'], correctAnswers: [5], explanation: 'Потому что' },
      ],
    };
    const result = parseModelJson(JSON.stringify(quiz), draftQuizSchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'questions.0.correctAnswers: wrong number of correct answers',
        'questions.1.correctAnswers: index out of range',
      ]),
    );
  });
});
