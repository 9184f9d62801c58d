import type { ChangeKind, ContentBlockType, VersionDiff } from '@portal/contracts';
import { BLOCK_TYPE_LABELS } from '../../../model/blocks';

/** The editor's words for course versions (the server's messages are VERSION_MSG in contracts). */
export const VERSIONS_UI = {
  publishChanges: 'Опубликовать изменения',
  discardChanges: 'Отменить изменения',
  keep: 'Оставить',
  history: 'История версий',
  publish: 'Опубликовать',
  cancel: 'Отмена',
  refresh: 'Обновить',
  summaryLabel: 'Что изменилось',
  summaryHint: 'Это описание увидят авторы в истории версий.',
  retake: 'требует повторного прохождения',
  current: 'текущая',
  open: 'Открыть',
  restore: 'Восстановить как черновик',
  compare: 'Сравнить',
  from: 'С версии',
  to: 'По версию',
  back: '← К списку версий',
  loadingDraft: 'Проверяем черновик...',
  draftFailed: 'Не удалось узнать состояние черновика',
  historyLoading: 'Загрузка истории версий...',
  historyFailed: 'Не удалось загрузить историю версий',
  historyEmpty: 'Опубликованных версий пока нет',
  outlineLoading: 'Загрузка версии...',
  outlineFailed: 'Не удалось загрузить версию',
  lessonLoading: 'Загрузка урока...',
  lessonFailed: 'Не удалось загрузить урок версии',
  compareLoading: 'Сравниваем версии...',
  compareFailed: 'Не удалось сравнить версии',
  noDifferences: 'Между этими версиями нет различий',
  readOnly: 'Только просмотр: версию нельзя изменить, её можно восстановить как черновик.',
  notVersioned: 'Курс ещё никто не начал: правки сразу видны ученикам',
  prune: 'Очистить старые версии',
  pruneKeep: 'Сколько последних версий хранить',
  pruneHint: 'Версии, на которые ссылаются попытки учеников, сохраняются всегда.',
  pruned: (removed: number[]) => (removed.length ? `Удалены версии: ${removed.join(', ')}` : 'Удалять нечего'),
  unsaved: 'Не удалось сохранить последние правки. Дождитесь сохранения или нажмите «Повторить», затем попробуйте снова.',
  changedLessons: 'Изменённые уроки',
  addedLessons: 'Добавленные уроки',
  removedLessons: 'Удалённые уроки',
  retakeHint: 'Отмеченные уроки ученики, уже прошедшие их, пройдут заново.',
} as const;

export const draftTitle = (version: number | null) =>
  version === null ? 'Черновик' : `Черновик · опубликована версия ${version}`;

export const sameAsPublished = (version: number | null) => `Черновик совпадает с опубликованной версией ${version ?? '—'}`;

/** «Изменено уроков: 2, добавлено: 1, удалено: 0». */
export const countsText = (counts: VersionDiff['counts']) =>
  `Изменено уроков: ${counts.changed}, добавлено: ${counts.added}, удалено: ${counts.removed}`;

export const discardQuestion = (version: number | null) =>
  `Отменить все изменения черновика? Черновик станет таким, как опубликованная версия ${version ?? '—'}. Это действие нельзя отменить.`;

export const restoreQuestion = (number: number) =>
  `Восстановить версию ${number} как черновик? Несохранённые правки черновика будут заменены этой версией. Ученики увидят её только после публикации.`;

export const versionTitle = (number: number) => `Версия ${number}`;

export const retakeLabel = (lessonTitle: string) => `Урок «${lessonTitle}» ${VERSIONS_UI.retake}`;

/** The outline's marks on what differs from the published version (lessons and modules alike). */
export const CHANGE_MARKS: Partial<Record<ChangeKind, string>> = { added: 'новый', changed: 'изменён' };

/** The groups of a comparison, in the order they are shown. */
export const CHANGE_GROUPS: ReadonlyArray<{ kind: ChangeKind; title: string }> = [
  { kind: 'added', title: 'Добавлены' },
  { kind: 'removed', title: 'Удалены' },
  { kind: 'changed', title: 'Изменены' },
];

export const DIFF_SECTIONS = { modules: 'Модули', lessons: 'Уроки', quizzes: 'Квизы' } as const;

export const bankText = (bank: VersionDiff['bank']) =>
  `Банк вопросов: добавлено ${bank.added}, удалено ${bank.removed}, изменено ${bank.changed}`;

const dateTime = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });

/** A moment as a Russian reader writes it: «04.12.2026, 14:05». */
export const formatWhen = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateTime.format(date);
};

const blockTypeLabel = (type: string) => (type in BLOCK_TYPE_LABELS ? BLOCK_TYPE_LABELS[type as ContentBlockType] : type);

/** The blocks a change touched inside a lesson: «блоков изменено: 3 (Текст ×2, Видео)». */
export function blockChangesText(changes: VersionDiff['blocks'][string]): string {
  if (changes.length === 0) return 'блоки не менялись';
  const byType = new Map<string, number>();
  for (const change of changes) byType.set(change.type, (byType.get(change.type) ?? 0) + 1);
  const types = [...byType].map(([type, n]) => (n > 1 ? `${blockTypeLabel(type)} ×${n}` : blockTypeLabel(type)));
  return `блоков изменено: ${changes.length} (${types.join(', ')})`;
}
