/**
 * The consent to the processing of personal data (152-FZ, art. 9): a document of its own, with its
 * own checkbox, never pre-ticked, given by the person for this purpose only. A new text gets a new
 * version, and everyone is asked again.
 */
export const CONSENT_DOCUMENT = {
  version: '2026-11-25',
  title: 'Согласие на обработку персональных данных',
  paragraphs: [
    'Я даю согласие оператору учебного портала — организации, которая предоставила мне доступ, — на обработку моих персональных данных: фамилии, имени, отчества, адреса электронной почты, должности и подразделения, а также сведений о моём обучении (назначенные курсы, прохождение уроков, ответы и результаты тестов, сертификаты).',
    'Цель обработки — организация обучения и проверки знаний, учёт его результатов и выдача документов о прохождении курсов.',
    'Действия с данными: сбор, запись, систематизация, накопление, хранение, уточнение, использование, обезличивание, блокирование, удаление и уничтожение, с использованием средств автоматизации. Данные не передаются третьим лицам, кроме случаев, предусмотренных законом.',
    'Согласие действует до достижения цели обработки или до его отзыва. Я могу отозвать его в любой момент в меню учётной записи («Согласие на обработку данных»); после отзыва оператор прекращает обработку и обезличивает данные в срок не более 30 дней, если иное не предусмотрено законом.',
  ],
} as const;

/** The last paragraph of the consent for a candidate «по ссылке», who has no account menu. */
export const CONSENT_WITHDRAWAL_BY_LINK =
  'Согласие действует до достижения цели обработки или до его отзыва. Я могу отозвать его в любой момент, сообщив об этом организации, которая выдала мне ссылку на тест; после отзыва оператор прекращает обработку и обезличивает данные в срок не более 30 дней, если иное не предусмотрено законом. Данные кандидата, прошедшего тест по ссылке, удаляются и без отзыва, когда истекает срок их хранения.';

export const CONSENT_MSG = {
  checkbox: 'Я даю согласие на обработку персональных данных',
  required: 'Подтвердите согласие на обработку персональных данных',
  outdated: 'Текст согласия обновился — прочитайте новую редакцию и подтвердите её',
  accepted: 'Согласие принято',
  withdrawn: 'Согласие отозвано. Администратор обезличит ваши данные в течение 30 дней',
  notGiven: 'Действующего согласия нет',
  /** The server's 403 for learning without the consent in force. */
  neededToStudy:
    'Обучение недоступно без согласия на обработку персональных данных. Подтвердите «Согласие на обработку персональных данных» и повторите',
} as const;

export interface ConsentRecord {
  version: string;
  acceptedAt: string;
  withdrawnAt: string | null;
}

/** GET /api/consent: the current text's version, the person's own consent, and whether to ask. */
export interface ConsentState {
  version: string;
  title: string;
  /** The person's latest consent (to any version), or null. */
  consent: ConsentRecord | null;
  /** True when there is no consent in force to the current version: the portal asks before going on. */
  required: boolean;
}
