/**
 * The words of SCORM packages and their players, without zod (scorm.ts has the wire schemas): the
 * player's study mode shows one beside a lesson, and a page that needs only words loads no zod.
 */
export const SCORM_MSG = {
  packageHostOnly: 'По этому адресу открываются только файлы SCORM-пакетов. Портал открывается по своему основному адресу',
  notZip: 'Файл не является zip-архивом. Загрузите SCORM-пакет в формате .zip',
  truncated: 'Архив повреждён или загружен не полностью. Загрузите файл ещё раз',
  noManifest: 'В корне архива нет файла imsmanifest.xml: это не SCORM-пакет',
  manifestInSubfolder:
    'Файл imsmanifest.xml лежит во вложенной папке «{folder}». Упакуйте содержимое этой папки так, чтобы imsmanifest.xml был в корне архива',
  manifestInvalid: 'Файл imsmanifest.xml не удалось прочитать: {reason}',
  versionUnsupported:
    'Версия SCORM «{version}» не поддерживается. Поддерживаются SCORM 1.2 и SCORM 2004 (2-я, 3-я и 4-я редакции)',
  noItems: 'В пакете нет ни одного учебного объекта (SCO), который можно открыть',
  missingFile: 'В архиве нет файла «{path}», на который ссылается imsmanifest.xml',
  unsafePath: 'В архиве есть недопустимый путь «{path}»: абсолютные пути и «..» запрещены',
  linkEntry: 'В архиве есть символическая ссылка «{path}»: такие пакеты не принимаются',
  tooManyFiles: 'В архиве {count} файлов, а допускается не больше {max}',
  tooBig: 'SCORM-пакет больше {max} МБ',
  unpackedTooBig: 'Распакованный пакет занимает больше {max} МБ',
  bombRatio: 'Архив сжат подозрительно сильно (файл «{path}»): такие архивы не принимаются',
  packageNotFound: 'SCORM-пакет не найден',
  launchExpired: 'Ссылка на учебный материал устарела. Обновите страницу урока',
  launchInvalid: 'Ссылка на учебный материал недействительна',
  modeInvalid: 'Укажите, как загрузить пакет: уроком (lesson) или целым курсом (course)',
  lessonHasNoPackage: 'В этом уроке нет SCORM-пакета',
  fileNotFound: 'Файл пакета не найден',
  attemptNotFound: 'Попытка не найдена',
  newAttemptNotAllowed: 'Урок уже пройден, а новые попытки в нём не разрешены',
  commitInvalid: 'Данные урока не удалось сохранить: {reason}',
  lessonIsScorm: 'Этот урок засчитывается сам, когда вы пройдёте учебный материал до конца',
  uploadLabel: 'SCORM-пакет',
  uploading: 'Загрузка пакета… {percent}%',
  processing: 'Проверяем пакет…',
} as const;
