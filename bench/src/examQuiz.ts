import { type AnswerValue, type PlayerQuestion, type Question, type QuizInput } from '@portal/contracts';
import { type ShownQuestion } from '@portal/quiz-engine';

/* ------------------------------------------------------------------------------ the quiz */

const examQuestion = (
  id: number,
  fields: Omit<Question, 'id' | 'order' | 'points' | 'options' | 'correctAnswers'> & Partial<Question>,
) => ({ id: `q${id}`, order: id - 1, points: 1, options: [], correctAnswers: [], ...fields }) as Question;

/**
 * Twenty questions of the types the player shows, choice first (every option and pair text unique,
 * which lets a learner answer by what is shown whatever the shuffle).
 */
export const EXAM_QUESTIONS: Question[] = [
  examQuestion(1, {
    type: 'single_choice',
    question: 'Сколько календарных дней длится ежегодный основной оплачиваемый отпуск?',
    options: ['14', '28', '31', '56'],
    correctAnswers: [1],
  }),
  examQuestion(2, {
    type: 'single_choice',
    question: 'Какой наибольший срок испытания для рядового работника?',
    options: ['1 месяц', '3 месяца', '6 месяцев', '1 год'],
    correctAnswers: [1],
  }),
  examQuestion(3, {
    type: 'single_choice',
    question: 'Кто подписывает трудовой договор со стороны работодателя?',
    options: ['Любой коллега', 'Уполномоченное лицо', 'Сам работник', 'Профсоюз'],
    correctAnswers: [1],
  }),
  examQuestion(4, {
    type: 'single_choice',
    question: 'Какова нормальная продолжительность рабочего времени в неделю?',
    options: ['36 часов', '40 часов', '42 часа', '48 часов'],
    correctAnswers: [1],
  }),
  examQuestion(5, {
    type: 'single_choice',
    question: 'За сколько дней работник предупреждает об увольнении по собственному желанию?',
    options: ['3 дня', '14 дней', '30 дней', '2 месяца'],
    correctAnswers: [1],
  }),
  examQuestion(6, {
    type: 'single_choice',
    question: 'Когда проводится вводный инструктаж по охране труда?',
    options: ['До начала работы', 'Через месяц', 'Раз в год', 'После отпуска'],
    correctAnswers: [0],
  }),
  examQuestion(7, {
    type: 'multiple_choice',
    question: 'Какие документы предъявляются при приёме на работу?',
    options: ['Паспорт', 'Сведения о трудовой деятельности', 'Школьный дневник', 'Справка о росте'],
    correctAnswers: [0, 1],
  }),
  examQuestion(8, {
    type: 'multiple_choice',
    question: 'Что относится к персональным данным работника?',
    options: ['Фамилия, имя, отчество', 'Номер телефона', 'Курс валют', 'Прогноз погоды'],
    correctAnswers: [0, 1],
  }),
  examQuestion(9, {
    type: 'multiple_choice',
    question: 'Какие инструктажи по охране труда бывают?',
    options: ['Вводный', 'Первичный', 'Праздничный', 'Повторный'],
    correctAnswers: [0, 1, 3],
  }),
  examQuestion(10, {
    type: 'true_false',
    question: 'Заработная плата выплачивается не реже чем каждые полмесяца',
    correctAnswer: 'true',
  }),
  examQuestion(11, {
    type: 'true_false',
    question: 'Работодатель вправе не оформлять трудовой договор письменно',
    correctAnswer: 'false',
  }),
  examQuestion(12, {
    type: 'true_false',
    question: 'Сверхурочная работа оплачивается в повышенном размере',
    correctAnswer: 'true',
  }),
  examQuestion(13, { type: 'short_answer', question: 'Главный закон о труде в России', correctAnswer: 'Трудовой кодекс' }),
  examQuestion(14, {
    type: 'short_answer',
    question: 'Каким документом работодатель оформляет приём на работу?',
    correctAnswer: 'Приказ',
  }),
  examQuestion(15, {
    type: 'numeric',
    question: 'Со скольких лет по общему правилу заключают трудовой договор?',
    correctAnswer: '16',
  }),
  examQuestion(16, { type: 'numeric', question: 'Сколько часов в неделю работают работники до 16 лет?', correctAnswer: '24' }),
  examQuestion(17, {
    type: 'ordering',
    question: 'Расположите шаги приёма на работу по порядку',
    options: ['Собеседование', 'Подписание договора', 'Издание приказа', 'Выход на работу'],
  }),
  examQuestion(18, {
    type: 'fill_blanks',
    question: 'Трудовой договор заключается в ___ форме в ___ экземплярах',
    blanks: ['письменной', 'двух'],
  }),
  examQuestion(19, {
    type: 'matching',
    question: 'Сопоставьте отпуск и его суть',
    pairs: [
      { left: 'Основной', right: 'Ежегодный оплачиваемый' },
      { left: 'Учебный', right: 'На время сессии' },
      { left: 'Без сохранения оплаты', right: 'За свой счёт' },
    ],
  }),
  examQuestion(20, {
    type: 'matrix',
    question: 'Отметьте, чья это обязанность',
    rows: ['Провести инструктаж', 'Выдать расчётный листок', 'Написать заявление на отпуск'],
    options: ['Работодатель', 'Работник'],
    correctAnswers: [0, 0, 1],
  }),
];

/** The quiz's time limit. */
export const EXAM_MINUTES = 20;

export const examQuiz = (courseId: string): QuizInput => ({
  title: 'Итоговый тест по охране труда и кадровому делу',
  description: 'Экзамен для всех сотрудников: 20 вопросов, 20 минут',
  courseId,
  questions: EXAM_QUESTIONS,
  settings: {
    randomizeQuestions: true,
    randomizeAnswers: true,
    passingScore: 70,
    maxAttempts: 3,
    showExplanations: 'after_submission',
    showCorrectAnswers: 'after_each_attempt',
    timeLimit: EXAM_MINUTES,
  },
});

/* ------------------------------------------------------------------------------ answers */

/**
 * A question as this attempt showed it, in the engine's terms: the orders are found back from the
 * texts shown (each unique), so the engine's own `toQuizTerms` and `answerText` say what the server
 * should hold for an answer.
 */
export function shownAs(question: Question, shown: PlayerQuestion): ShownQuestion {
  const identity = (n: number) => Array.from({ length: n }, (_, i) => i);
  const pairs = question.pairs ?? [];
  const reordered = ['single_choice', 'multiple_choice', 'ordering'].includes(question.type);
  return {
    ...question,
    optionOrder: reordered ? shown.options.map((text) => question.options.indexOf(text)) : identity(question.options.length),
    leftOrder: question.type === 'matching' ? (shown.left ?? []).map((t) => pairs.findIndex((p) => p.left === t)) : [],
    rightOrder: question.type === 'matching' ? (shown.right ?? []).map((t) => pairs.findIndex((p) => p.right === t)) : [],
  };
}

/** What a learner answers to a shown question: right, wrong or nothing, in the order shown, as the player sends it. */
export function answerFor(question: Question, shown: PlayerQuestion, choice: 'right' | 'wrong' | 'blank'): AnswerValue {
  if (choice === 'blank') return null;
  const right = choice === 'right';
  const at = (text: string) => shown.options.indexOf(text);
  switch (question.type) {
    case 'single_choice': {
      const correct = at(question.options[question.correctAnswers[0]]);
      return right ? correct : (correct + 1) % shown.options.length;
    }
    case 'multiple_choice': {
      const correct = question.correctAnswers.map((i) => at(question.options[i]));
      return right ? correct : correct.slice(0, 1);
    }
    case 'ordering': {
      const correct = question.options.map(at);
      return right ? correct : [...correct].reverse();
    }
    case 'matching': {
      const pairs = question.pairs ?? [];
      const answer: Record<string, number> = {};
      (shown.left ?? []).forEach((left, l) => {
        const pair = pairs.findIndex((p) => p.left === left);
        const target = right ? pair : (pair + 1) % pairs.length;
        answer[String(l)] = (shown.right ?? []).indexOf(pairs[target].right);
      });
      return answer;
    }
    case 'matrix':
      return Object.fromEntries(question.correctAnswers.map((column, row) => [String(row), right ? column : 1 - column]));
    case 'fill_blanks':
      return right ? [...(question.blanks ?? [])] : (question.blanks ?? []).map(() => 'не знаю');
    case 'true_false':
      return right ? question.correctAnswer! : question.correctAnswer === 'true' ? 'false' : 'true';
    case 'numeric':
      return right ? question.correctAnswer! : '0';
    default:
      return right ? (question.correctAnswer ?? '') : 'Не помню';
  }
}
