import { z } from 'zod';
import {
  LESSON_STATUSES,
  type CourseVersionSummary,
  type DraftState,
  type Page,
  type VersionDiff,
  type VersionOutline,
} from '@portal/contracts';
import { conforms, isoDateTime, pageOf } from '@portal/service-kit';

const id = z.string().meta({ example: '6743a1f0c2b5e80012ab34cd' });
const changeKind = z
  .enum(['added', 'removed', 'changed'])
  .meta({ description: 'added — добавлен, removed — удалён, changed — изменён' });
const counts = z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() });

const structureChange = z.object({
  id,
  kind: changeKind,
  title: z.string(),
  moduleId: id.nullable().optional(),
});

export const versionDiffSchema = conforms<VersionDiff>().as(
  z
    .object({
      modules: z.array(structureChange),
      lessons: z.array(structureChange),
      quizzes: z.array(structureChange),
      bank: counts.meta({ description: 'Вопросы банка: сколько добавлено, удалено, изменено' }),
      blocks: z
        .record(z.string(), z.array(z.object({ id: z.string(), kind: changeKind, type: z.string() })))
        .meta({ description: 'Для каждого изменённого урока — блоки содержимого, добавленные, удалённые или изменённые' }),
      counts: counts.meta({ description: 'Уроки: сколько добавлено, удалено, изменено' }),
    })
    .meta({ id: 'VersionDiff' }),
);

export const draftStateSchema = conforms<DraftState>().as(
  z
    .object({
      publishedVersion: z.number().int().nullable().meta({ description: 'Версия, которую видят ученики; null — версий ещё нет' }),
      versioned: z.boolean(),
      hasChanges: z.boolean(),
      diff: versionDiffSchema,
    })
    .meta({ id: 'DraftState' }),
);

export const courseVersionSchema = conforms<CourseVersionSummary>().as(
  z
    .object({
      number: z.number().int().meta({ example: 3 }),
      summary: z.string().meta({ example: 'Обновлён раздел о СИЗ' }),
      publishedBy: z.object({ id: z.string(), name: z.string() }),
      publishedAt: isoDateTime,
      counts,
      retakeLessonIds: z.array(id),
      current: z.boolean(),
      pinned: z.boolean().meta({ description: 'На версии начаты попытки: очистка её не удалит' }),
    })
    .meta({ id: 'CourseVersion' }),
);

export const courseVersionPageSchema = conforms<Page<CourseVersionSummary>>().as(
  pageOf(courseVersionSchema, 'CourseVersionPage'),
);

export const versionOutlineSchema = conforms<VersionOutline>().as(
  z
    .object({
      courseId: id,
      number: z.number().int(),
      summary: z.string(),
      publishedAt: isoDateTime,
      modules: z.array(
        z.object({
          id,
          title: z.string(),
          description: z.string(),
          lessons: z.array(z.object({ id, title: z.string(), blocksCount: z.number().int(), hasQuiz: z.boolean() })),
        }),
      ),
    })
    .meta({ id: 'VersionOutline' }),
);

export const versionLessonSchema = z
  .object({
    id,
    type: z.literal('LESSON'),
    title: z.string(),
    courseId: id,
    moduleId: id.nullable(),
    position: z.number().int(),
    status: z.enum(LESSON_STATUSES),
    version: z.number().int(),
    generated: z.boolean().optional(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    content: z.string().meta({ description: 'Блоки урока в этой версии (JSON-строка, как в GET /api/blocks/{id})' }),
    description: z.string(),
  })
  .meta({ id: 'VersionLesson' });

export const pruneAnswerSchema = z
  .object({ removed: z.array(z.number().int()).meta({ description: 'Номера удалённых версий' }) })
  .meta({ id: 'PruneVersionsAnswer' });
