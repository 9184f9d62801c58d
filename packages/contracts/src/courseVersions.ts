import { z } from 'zod';
import './zod-ru';
import { entityIdField } from './content';
import { pagingFields } from './paging';

/**
 * Course versions (docs/decisions/093): once a course has learners, authors edit a draft while
 * learners keep the published version; «Опубликовать изменения» makes the draft the next numbered
 * version, «Отменить изменения» throws the draft away, and any version can be read, compared and
 * restored as the draft. One definition of the inputs, the answers and the texts.
 */

/* ------------------------------------------------------------------ texts */

export const VERSION_MSG = {
  notFound: 'Версия курса не найдена',
  notVersioned: 'У курса ещё нет опубликованных версий',
  notPublished: 'Курс не опубликован: публиковать изменения можно только у опубликованного курса',
  summaryRequired: 'Кратко опишите изменения',
  summaryTooLong: 'Описание изменений — не длиннее 500 символов',
  nothingToPublish: 'В черновике нет изменений: публиковать нечего',
  nothingToDiscard: 'В черновике нет изменений: отменять нечего',
  stalePublished: 'Пока вы смотрели курс, его опубликовали заново. Обновите страницу и проверьте изменения',
  busy: 'Курс сейчас меняют: попробуйте опубликовать ещё раз через несколько секунд',
  retakeNotChanged: 'Повторное прохождение можно требовать только для изменённых уроков этой публикации',
  retentionInvalid: 'Сколько версий хранить — целое число от 1 до 1000',
  versionInvalid: 'Номер версии — целое положительное число',
  lessonNotInVersion: 'В этой версии курса нет такого урока',
} as const;

/* ------------------------------------------------------------------ limits */

export const VERSION_SUMMARY_MAX = 500;
/** How many published versions a course keeps when nobody set it (pruning keeps pinned ones anyway). */
export const DEFAULT_VERSION_RETENTION = 100;

/* ------------------------------------------------------------------ inputs */

const versionNumber = z.coerce
  .number({ error: VERSION_MSG.versionInvalid })
  .int({ error: VERSION_MSG.versionInvalid })
  .min(1, { error: VERSION_MSG.versionInvalid })
  .max(1_000_000, { error: VERSION_MSG.versionInvalid });

export const versionParamsSchema = z.object({ id: entityIdField('id'), number: versionNumber });
export const versionLessonParamsSchema = versionParamsSchema.extend({ lessonId: entityIdField('lessonId') });

export const publishVersionSchema = z.object({
  summary: z
    .string({ error: VERSION_MSG.summaryRequired })
    .trim()
    .min(1, { error: VERSION_MSG.summaryRequired })
    .max(VERSION_SUMMARY_MAX, { error: VERSION_MSG.summaryTooLong }),
  /** The published version the author saw (null: none yet): a publish from a stale view is refused. */
  basedOn: z.number().int().min(0).nullable(),
  /** Changed lessons whose learners must take them again («требует повторного прохождения»). */
  retakeLessonIds: z.array(entityIdField('retakeLessonIds')).max(2000).default([]),
});
export type PublishVersionInput = z.infer<typeof publishVersionSchema>;

export const discardDraftSchema = z.object({ basedOn: z.number().int().min(0).nullable() });
export type DiscardDraftInput = z.infer<typeof discardDraftSchema>;

export const compareVersionsQuerySchema = z.object({ from: versionNumber, to: versionNumber });

export const pruneVersionsSchema = z.object({
  keep: z.coerce
    .number({ error: VERSION_MSG.retentionInvalid })
    .int({ error: VERSION_MSG.retentionInvalid })
    .min(1, { error: VERSION_MSG.retentionInvalid })
    .max(1000, { error: VERSION_MSG.retentionInvalid }),
});

export const versionsPageQuerySchema = z.object(pagingFields(20));

/* ------------------------------------------------------------------ answers */

export type ChangeKind = 'added' | 'removed' | 'changed';

/** A lesson or module that differs between two states of a course. */
export interface StructureChange {
  id: string;
  kind: ChangeKind;
  title: string;
  /** Lessons: the module it is in (in the newer state, or the older one when removed). */
  moduleId?: string | null;
}

/** What differs between two states of a course (two versions, or the published one and the draft). */
export interface VersionDiff {
  modules: StructureChange[];
  lessons: StructureChange[];
  quizzes: StructureChange[];
  /** Question bank: how many questions were added, removed or changed. */
  bank: { added: number; removed: number; changed: number };
  /** Per changed lesson: the content blocks added, removed or changed inside it, by block id. */
  blocks: Record<string, Array<{ id: string; kind: ChangeKind; type: string }>>;
  counts: { added: number; removed: number; changed: number };
}

export interface CourseVersionSummary {
  number: number;
  summary: string;
  publishedBy: { id: string; name: string };
  publishedAt: string;
  /** What this version changed against the one before it (the first: everything added). */
  counts: { added: number; removed: number; changed: number };
  /** Lessons whose learners had to take them again with this version. */
  retakeLessonIds: string[];
  /** The version learners see now. */
  current: boolean;
  /** An attempt or a result refers to it: pruning keeps it. */
  pinned: boolean;
}

/** The draft as the editor shows it: which version it is based on and what differs from it. */
export interface DraftState {
  /** null: the course has no published version yet (edits reach learners at once, see decision 093). */
  publishedVersion: number | null;
  /** Whether learners see versions (the course is published and has a version). */
  versioned: boolean;
  hasChanges: boolean;
  diff: VersionDiff;
}

/** A version read as a learner sees it: its outline (the lessons' content is read one by one). */
export interface VersionOutline {
  courseId: string;
  number: number;
  summary: string;
  publishedAt: string;
  modules: Array<{
    id: string;
    title: string;
    description: string;
    lessons: Array<{ id: string; title: string; blocksCount: number; hasQuiz: boolean }>;
  }>;
}

export const VERSION_CHANGE_LABELS: Record<ChangeKind, string> = {
  added: 'добавлен',
  removed: 'удалён',
  changed: 'изменён',
};
