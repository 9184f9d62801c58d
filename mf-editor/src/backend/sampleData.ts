import { NEW_QUIZ_DEFAULTS, type ContentBlock, type Course, type Quiz } from '@portal/contracts';

/** The bundled sample data, one 'HR basics' quiz with 3 questions (limit 600 s). */
export const SAMPLE_QUIZ: Quiz = {
  id: 'demo-quiz-hr',
  title: 'Основы HR',
  description: 'Проверьте, как вы усвоили основы кадровой работы',
  courseId: 'demo-course',
  draws: [],
  questions: [
    {
      id: 'demo-q1',
      type: 'single_choice',
      question: 'Какой документ регулирует трудовые отношения в России?',
      options: ['Трудовой кодекс', 'Гражданский кодекс', 'Налоговый кодекс'],
      correctAnswers: [0],
      explanation: 'Трудовые отношения регулирует Трудовой кодекс РФ.',
      order: 1,
      points: 1,
    },
    {
      id: 'demo-q2',
      type: 'true_false',
      question: 'Испытательный срок для большинства сотрудников не может превышать трёх месяцев.',
      options: [],
      correctAnswers: [],
      correctAnswer: 'true',
      explanation: 'Так установлено статьёй 70 Трудового кодекса.',
      order: 2,
      points: 1,
    },
    {
      id: 'demo-q3',
      type: 'multiple_choice',
      question: 'Что входит в адаптацию нового сотрудника?',
      options: ['Знакомство с командой', 'Вводный инструктаж', 'Лишение премии', 'Назначение наставника'],
      correctAnswers: [0, 1, 3],
      explanation: 'Адаптация помогает сотруднику влиться в работу, а не наказывает его.',
      order: 3,
      points: 1,
    },
  ],
  settings: { ...NEW_QUIZ_DEFAULTS.settings, timeLimit: 10 },
  version: 0,
  createdAt: '2026-01-15T09:00:00.000Z',
  updatedAt: '2026-01-15T09:00:00.000Z',
};

const at = '2026-01-15T09:00:00.000Z';
const blocks = (lessonId: string, list: Array<Pick<ContentBlock, 'type' | 'content'>>): ContentBlock[] =>
  list.map((b, i) => ({ ...b, id: `${lessonId}-b${i + 1}`, order: i + 1, lessonId }) as ContentBlock);

const lesson = (
  id: string,
  moduleId: string,
  position: number,
  title: string,
  status: 'draft' | 'published',
  list: Array<Pick<ContentBlock, 'type' | 'content'>>,
) => {
  const content = blocks(id, list);
  return {
    id,
    version: 0,
    title,
    description: '',
    status,
    courseId: 'demo-course',
    moduleId,
    position,
    blocks: content,
    createdAt: at,
    updatedAt: at,
  };
};

/** A small onboarding course with every kind of block. */
export const SAMPLE_COURSE: Course = {
  id: 'demo-course',
  version: 0,
  title: 'Адаптация новых сотрудников',
  description: 'Демонстрационный курс: знакомство с компанией, правилами и первыми задачами',
  price: 0,
  duration: 4,
  level: 'Начальный',
  isPublished: false,
  status: 'draft',
  createdAt: at,
  updatedAt: at,
  isFavorite: false,
  isStarted: false,
  modulesCount: 2,
  lessonsCount: 3,
  ownerId: null,
  coAuthorIds: [],
  archived: false,
  modules: [
    {
      id: 'demo-m1',
      title: 'Знакомство с компанией',
      description: 'История, ценности и структура',
      courseId: 'demo-course',
      position: 0,
      status: 'published',
      version: 0,
      createdAt: at,
      updatedAt: at,
      lessons: [
        lesson('demo-l1', 'demo-m1', 0, 'О компании', 'published', [
          { type: 'heading', content: { text: 'Добро пожаловать!' } },
          { type: 'text', content: { text: 'Мы рады, что вы с нами. В этом уроке — о том, как устроена компания.' } },
          { type: 'image', content: { src: '', alt: 'Офис компании', caption: 'Наш главный офис' } },
        ]),
        lesson('demo-l2', 'demo-m1', 1, 'Ценности и правила', 'draft', [
          { type: 'heading', content: { text: 'Наши ценности' } },
          { type: 'text', content: { text: 'Открытость, ответственность и забота о клиентах.' } },
          { type: 'video', content: { src: '', poster: '', autoplay: false, title: 'Обращение директора', description: '' } },
          {
            type: 'file',
            content: {
              name: 'Правила внутреннего распорядка.pdf',
              size: '1.25',
              src: '',
              description: 'Прочитайте до конца первой недели',
            },
          },
        ]),
      ],
    },
    {
      id: 'demo-m2',
      title: 'Первые шаги',
      description: '',
      courseId: 'demo-course',
      position: 1,
      status: 'draft',
      version: 0,
      createdAt: at,
      updatedAt: at,
      lessons: [
        lesson('demo-l3', 'demo-m2', 0, 'Проверка знаний', 'draft', [
          { type: 'audio', content: { src: '', title: 'Подкаст об адаптации', description: '' } },
          { type: 'quiz', content: { quizId: SAMPLE_QUIZ.id, questionsCount: SAMPLE_QUIZ.questions.length } },
        ]),
      ],
    },
  ],
};
