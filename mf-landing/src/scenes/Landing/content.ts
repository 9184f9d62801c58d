import type { IconName } from '../../components/icons';
import { ruForm } from '@portal/contracts';

/** The landing's sections that the header links to (the spec's anchors of the landing, plus 'about'). */
export const SECTIONS = [
  { id: 'how-it-works', label: 'Как это работает' },
  { id: 'advantages', label: 'Преимущества' },
  { id: 'about', label: 'О проекте' },
  { id: 'faq', label: 'Вопросы' },
] as const;

export const DEMO_PATH = '/demo/course-editor';

/**
 * The free plan's course limit as the FAQ states it (a figure of the pricing text; enforcement is not shown).
 * Kept here rather than in the shared contracts: the shell provides that singleton, so a new
 * export there would reach this remote only after the shell is redeployed.
 */
export const FREE_PLAN_COURSE_LIMIT = 3;

export const STEPS = [
  { title: 'Опишите тему', text: 'Укажите тему курса, аудиторию и цели обучения — своими словами, как объяснили бы коллеге.' },
  { title: 'ИИ создаст структуру', text: 'За несколько минут появятся модули, уроки, задания и тесты, собранные под ваши цели.' },
  {
    title: 'Настройте контент',
    text: 'Отредактируйте материалы, добавьте медиа, поменяйте порядок уроков и настройте задания и тесты.',
  },
  { title: 'Запустите курс', text: 'Опубликуйте курс и следите за прогрессом и результатами учеников.' },
];

export const ADVANTAGES: Array<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'sparkles',
    title: 'Структура курса от ИИ',
    text: 'ИИ предлагает модули, уроки и задания по теме, аудитории и целям обучения — вы начинаете не с чистого листа.',
  },
  {
    icon: 'layers',
    title: 'Любые форматы',
    text: 'Видео, аудио, текст, изображения, интерактивные задания, тесты и презентации в одном курсе.',
  },
  {
    icon: 'move',
    title: 'Удобный редактор',
    text: 'Модули, уроки и блоки переставляются перетаскиванием, а изменения сохраняются автоматически.',
  },
  {
    icon: 'quiz',
    title: 'Тесты и задания',
    text: 'Проходной балл, число попыток и ограничение по времени настраиваются для каждого теста.',
  },
  {
    icon: 'chart',
    title: 'Прогресс и результаты',
    text: 'Пройденные уроки, результаты тестов и сводка по обучению всегда под рукой.',
  },
  {
    icon: 'plug',
    title: 'Интеграции',
    text: 'Подключение к системам управления обучением, CRM, платёжным сервисам и платформам для вебинаров — по запросу.',
  },
];

/**
 * The marketing figures of the product's description (docs/decisions/049: shown as claims, marked «*»). They are claims from the project's copy, not
 * measurements of this portal, and the page labels them so (see CLAIMS_NOTE).
 *
 * Written out as ru-RU prints them (a no-break space before «%» and between thousands; the test
 * beside this file checks each against `Intl.NumberFormat`), not formatted as the module loads: a
 * page's first NumberFormat sets up ICU's number data, a task of 35–85 ms on this host's Chromium
 * (four times that on the phone Lighthouse simulates), and nothing else a visitor's landing shows
 * needs it.
 */
export const CLAIMS = [
  { value: '90\u00a0%', label: 'экономии времени на создание курса' },
  { value: '+40\u00a0%', label: 'к усвоению материала' },
  { value: '100+', label: 'метрик обучения' },
  { value: '190+', label: 'стран' },
  { value: '50\u00a0000+', label: 'преподавателей' },
  { value: '95\u00a0%', label: 'оценка качества' },
];

export const CLAIMS_NOTE =
  'Цифры взяты из маркетинговых материалов проекта: это заявления, а не измеренные показатели этого портала.';

const COURSES_GENITIVE = { one: 'курса', few: 'курсов', many: 'курсов', other: 'курса' };

/** "до 1 курса", "до 3 курсов", "до 21 курса": the genitive after «до». */
export const upToCourses = (n: number): string => `до ${n} ${ruForm(n, COURSES_GENITIVE)}`;

export const FAQ = [
  {
    question: 'Как ИИ помогает создать курс?',
    answer:
      'Вы описываете тему, аудиторию и цели обучения, а ИИ предлагает структуру курса: модули, уроки, задания и тесты. Затем вы редактируете всё вручную — ничего не публикуется без вас.',
  },
  {
    question: 'Нужны ли технические навыки?',
    answer:
      'Нет. Курс собирается в визуальном редакторе из готовых блоков: заголовков, текста, изображений, видео, аудио, файлов и тестов.',
  },
  {
    question: 'Есть ли бесплатный тариф?',
    answer: `Да. На бесплатном тарифе можно создать ${upToCourses(FREE_PLAN_COURSE_LIMIT)}. Платные тарифы открывают расширенные возможности.`,
  },
  {
    question: 'Какие форматы материалов поддерживаются?',
    answer: 'Видео, аудио, текст, изображения, интерактивные задания, тесты и презентации.',
  },
  {
    question: 'Как отслеживать прогресс учеников?',
    answer:
      'Портал отмечает пройденные уроки и сохраняет результаты тестов, а авторы курсов видят сводку по обучению на панели управления.',
  },
  {
    question: 'Можно ли подключить другие системы?',
    answer:
      'Заявлены интеграции с системами управления обучением, CRM, платёжными сервисами и платформами для вебинаров; их подключение обсуждается отдельно для каждой компании.',
  },
];

export const FOOTER_GROUPS = [
  {
    title: 'Компания',
    links: [{ label: 'О нас', href: '#about' }, { label: 'Блог' }, { label: 'Карьера' }, { label: 'Пресса' }],
  },
  {
    title: 'Правовая информация',
    links: [{ label: 'Политика конфиденциальности' }, { label: 'Условия использования' }, { label: 'Файлы cookie' }],
  },
];
