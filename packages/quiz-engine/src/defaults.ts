import type { Question, QuestionType } from './types';

export const NEW_QUESTION_TEXT = 'Новый вопрос';

/** A new question of a type, as the editor adds it («Новый вопрос», 1 point). */
export function newQuestion(type: QuestionType, id: string, order: number): Question {
  const base: Question = { id, type, question: NEW_QUESTION_TEXT, options: [], correctAnswers: [], order, points: 1 };
  switch (type) {
    case 'single_choice':
    case 'multiple_choice':
      return { ...base, options: ['Вариант 1', 'Вариант 2'], correctAnswers: [0] };
    case 'true_false':
      return { ...base, correctAnswer: 'true' };
    case 'ordering':
      return { ...base, options: ['Вариант 1', 'Вариант 2'] };
    case 'matching':
      return {
        ...base,
        pairs: [
          { left: 'Вариант 1', right: 'Ответ 1' },
          { left: 'Вариант 2', right: 'Ответ 2' },
        ],
      };
    case 'fill_blanks':
      return { ...base, question: 'Заполните пропуск: ___', blanks: [''] };
    case 'numeric':
      return { ...base, correctAnswer: '0', tolerance: 0 };
    case 'scale':
      return {
        ...base,
        options: ['Совсем не согласен', 'Скорее не согласен', 'Затрудняюсь ответить', 'Скорее согласен', 'Полностью согласен'],
      };
    case 'matrix':
      return { ...base, rows: ['Строка 1', 'Строка 2'], options: ['Столбец 1', 'Столбец 2'], correctAnswers: [0, 0] };
    case 'hotspot':
      return { ...base, image: '', imageAlt: '', areas: [{ shape: 'rect', x: 25, y: 25, width: 50, height: 50 }] };
    case 'image_labels':
      return {
        ...base,
        image: '',
        imageAlt: '',
        markers: [
          { x: 25, y: 50, label: 'Подпись 1' },
          { x: 75, y: 50, label: 'Подпись 2' },
        ],
      };
    case 'file_upload':
      return base;
    default:
      return { ...base, correctAnswer: '' };
  }
}
