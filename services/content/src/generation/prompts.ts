import type { DraftBlock, DraftQuestion, GenerateCourseRequest } from '@portal/contracts';
import type { ChatMessage } from './provider';
import type { OutlineModule } from './schemas';

/** The course around a regenerated node: context only, the model must not change it. */
export interface CourseContext {
  title: string;
  description: string;
  moduleTitles: string[];
}

export type NodeSnapshot =
  | { kind: 'lesson'; moduleTitle: string; title: string; blocks: DraftBlock[]; siblingTitles?: string[] }
  | { kind: 'module'; title: string; description: string; lessons: Array<{ title: string; blocks: DraftBlock[] }> }
  | { kind: 'quiz'; title: string; questions: DraftQuestion[] };

const SYSTEM = [
  'Ты — опытный методист корпоративного обучения и пишешь учебные материалы на русском языке.',
  'Отвечай строго одним JSON-объектом без пояснений, без Markdown и без блоков ```.',
  'Все тексты — на русском языке, конкретные и полезные для указанной аудитории.',
].join('\n');

/* Shapes the model must return, written out so that any OpenAI-compatible model can follow them. */
const BLOCK_SHAPE = `блок урока — один из вариантов:
  {"type": "heading", "text": "заголовок раздела"}
  {"type": "text", "text": "абзацы текста урока (можно Markdown)"}
  {"type": "image", "suggestion": "какую иллюстрацию сюда поставить"}
  {"type": "video", "suggestion": "какое видео сюда поставить"}
  {"type": "audio", "suggestion": "какое аудио сюда поставить"}`;

const LESSON_SHAPE = `урок: {"title": "название урока", "description": "краткое описание", "blocks": [блоки урока, от 1 до 12]}
${BLOCK_SHAPE}`;

const QUESTION_SHAPE = `вопрос — один из вариантов:
  {"type": "single_choice", "question": "текст", "options": ["вариант 1", "вариант 2", "вариант 3"], "correctAnswers": [индекс единственного верного варианта, с 0], "explanation": "почему так"}
  {"type": "multiple_choice", "question": "текст", "options": ["…", "…", "…"], "correctAnswers": [индексы всех верных вариантов, с 0], "explanation": "почему так"}
  {"type": "true_false", "question": "утверждение", "correctAnswer": "true" или "false", "explanation": "почему так"}`;

const QUIZ_SHAPE = `{"title": "название квиза", "description": "кратко", "questions": [от 3 до 8 вопросов]}
${QUESTION_SHAPE}
У каждого вопроса обязательно есть explanation.`;

function requestLines(req: GenerateCourseRequest): string[] {
  return [
    `Тема курса: ${req.topic}`,
    `Аудитория: ${req.audience}`,
    `Уровень: ${req.level}`,
    'Цели обучения:',
    ...req.goals.map((goal, i) => `${i + 1}. ${goal}`),
    req.modulesCount
      ? `Количество содержательных модулей: ${req.modulesCount} (плюс вводный модуль «Введение» в начале и модуль «Итоговая аттестация» в конце).`
      : `Количество содержательных модулей: по одному на каждую цель (${req.goals.length}), плюс вводный модуль «Введение» в начале и модуль «Итоговая аттестация» в конце.`,
    `Уроков в каждом содержательном модуле: ${req.lessonsPerModule ?? '2–4'}.`,
    `Квизы: ${req.withQuizzes ? 'да, по квизу на модуль и итоговый тест' : 'нет'}.`,
  ];
}

const user = (content: string): ChatMessage => ({ role: 'user', content });
const system: ChatMessage = { role: 'system', content: SYSTEM };

/** Stage "structure": the course title and description, modules with lesson titles. */
export function structurePrompt(req: GenerateCourseRequest): ChatMessage[] {
  return [
    system,
    user(
      [
        'Составь структуру учебного курса.',
        ...requestLines(req),
        '',
        'Верни JSON такой формы:',
        '{"title": "название курса", "description": "описание курса для каталога", "modules": [{"title": "название модуля", "description": "чему учит модуль", "lessonTitles": ["урок 1", "урок 2"]}]}',
        'Каждая цель обучения должна быть раскрыта хотя бы в одном модуле.',
      ].join('\n'),
    ),
  ];
}

/** Stage "lessons": one module's lessons with starter blocks. */
export function lessonsPrompt(req: GenerateCourseRequest, courseTitle: string, module: OutlineModule): ChatMessage[] {
  return [
    system,
    user(
      [
        `Напиши уроки модуля «${module.title}» курса «${courseTitle}».`,
        ...requestLines(req),
        `Описание модуля: ${module.description || '—'}`,
        `Уроки модуля (в этом порядке): ${module.lessonTitles.map((t) => `«${t}»`).join(', ')}`,
        '',
        'Верни JSON такой формы: {"lessons": [уроки]}',
        LESSON_SHAPE,
        'Начинай урок с заголовка, затем объясняющий текст; медиа — только как предложения (suggestion).',
      ].join('\n'),
    ),
  ];
}

/** Stage "quizzes": one module's quiz. */
export function quizPrompt(
  req: GenerateCourseRequest,
  courseTitle: string,
  module: { title: string; lessonTitles: string[] },
  final: boolean,
): ChatMessage[] {
  return [
    system,
    user(
      [
        final
          ? `Составь итоговый тест по всему курсу «${courseTitle}».`
          : `Составь квиз по модулю «${module.title}» курса «${courseTitle}».`,
        ...requestLines(req),
        `Уроки: ${module.lessonTitles.map((t) => `«${t}»`).join(', ')}`,
        '',
        'Верни JSON такой формы:',
        QUIZ_SHAPE,
      ].join('\n'),
    ),
  ];
}

const NODE_NAMES = { lesson: 'урок', module: 'модуль', quiz: 'квиз' } as const;

const NODE_SHAPES = {
  lesson: `{"title": "название урока", "blocks": [блоки урока, от 1 до 12]}\n${BLOCK_SHAPE}`,
  module: `{"title": "название модуля", "description": "чему учит модуль", "lessons": [уроки, от 1 до 10]}\n${LESSON_SHAPE}`,
  quiz: QUIZ_SHAPE,
} as const;

/** Regeneration of one node: the course as context, the node as it is now, the author's wishes. */
export function regenerationPrompt(course: CourseContext, node: NodeSnapshot, instructions: string): ChatMessage[] {
  const name = NODE_NAMES[node.kind];
  return [
    system,
    user(
      [
        `Перепиши ${name} учебного курса. Остальной курс не меняй — он дан только как контекст.`,
        `Курс: «${course.title}»`,
        `Описание курса: ${course.description || '—'}`,
        `Модули курса: ${course.moduleTitles.map((t) => `«${t}»`).join(', ') || '—'}`,
        '',
        `Текущее содержимое (${name}):`,
        JSON.stringify(node, null, 1),
        '',
        `Пожелания автора: ${instructions || 'нет; сделай вариант заметно лучше и иначе, чем текущий'}`,
        '',
        'Верни JSON такой формы:',
        NODE_SHAPES[node.kind],
      ].join('\n'),
    ),
  ];
}

/** The one repair attempt: the invalid answer goes back with what is wrong with it. */
export function repairPrompt(messages: ChatMessage[], invalidAnswer: string, problems: string[]): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: invalidAnswer.slice(0, 20_000) },
    user(
      [
        'Этот ответ не подходит. Проблемы:',
        ...problems.map((p) => `- ${p}`),
        'Исправь и верни весь ответ заново: только один корректный JSON-объект той же формы, без пояснений.',
      ].join('\n'),
    ),
  ];
}
