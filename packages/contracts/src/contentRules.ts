import type { BlockRecord, ContentBlock } from './content';
import { ruCount } from './plural';

/**
 * The words and rules of courses a page needs, without zod (content.ts has the wire schemas): a
 * learner's study page loads these and no schema library.
 */

export const COURSE_STATUSES = ['draft', 'published', 'hidden'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

export const COURSE_STATUS_LABELS: Record<CourseStatus, string> = {
  draft: 'Черновик',
  published: 'Опубликован',
  hidden: 'Скрыт',
};

/** A status as an icon: draft yellow ●, hidden grey ◎, published green ✔. */
export const COURSE_STATUS_ICONS: Record<CourseStatus, string> = { draft: '●', hidden: '◎', published: '✔' };

/**
 * What a text block's `html` may hold (docs/frontend.md «Rich text»). Everything else (scripts, styles, classes, on*
 * attributes, other addresses than http(s) and mailto) is removed on the way in, by the editor and
 * again by the content service, and on the way out, by the player. `text` stays the plain rendition.
 */
export const RICH_TEXT = {
  tags: ['p', 'br', 'strong', 'em', 'u', 's', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'blockquote'],
  attributes: { a: ['href'] },
  schemes: ['http', 'https', 'mailto'],
  maxHtml: 200_000,
} as const;

/** A lesson record's content blocks in order; anything that is not a list reads as none. */
export function contentBlocksOf(record: Pick<BlockRecord, 'type' | 'content'>): ContentBlock[] {
  if (record.type !== 'LESSON' || !record.content) return [];
  try {
    const parsed: unknown = JSON.parse(record.content);
    return Array.isArray(parsed) ? [...(parsed as ContentBlock[])].sort((a, b) => a.order - b.order) : [];
  } catch {
    return [];
  }
}

/** 'N уроков' with the Russian forms: 1 урок, 2 урока, 5 уроков, 21 урок. */
export const lessonsLabel = (count: number): string => ruCount(count, { one: 'урок', few: 'урока', many: 'уроков' });
