import { z } from 'zod';
import {
  CONTENT_BLOCK_TYPES,
  COURSE_STATUSES,
  type Course,
  type CourseAuthors,
  type CourseOutline,
  type CourseSummary,
} from '@portal/contracts';
import { conforms, etagHeader, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

/** What an id of a record looks like, for examples. */
export const id = z.string().meta({ example: EXAMPLE_ID });
/** A record written with optimistic concurrency: its version and when it was made and last changed. */
export const versionedRecord = { version: z.number().int(), createdAt: isoDateTime, updatedAt: isoDateTime };
export const courseStatus = z.enum(COURSE_STATUSES);

/** Path parameters: the id of a course (any string: a malformed one is a course that does not exist, 404). */
export const courseIdParams = (name = 'id') =>
  z.object({ [name]: z.string().meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }) });

const courseSummaryShape = {
  id,
  title: z.string().meta({ example: 'Охрана труда' }),
  description: z.string(),
  price: z.number(),
  duration: z.number(),
  level: z.string().meta({ example: 'Начальный' }),
  isPublished: z.boolean(),
  status: courseStatus,
  ...versionedRecord,
  isFavorite: z.boolean(),
  isStarted: z.boolean(),
  modulesCount: z.number().int(),
  lessonsCount: z.number().int(),
  ownerId: z.string().nullable(),
  coAuthorIds: z.array(z.string()),
  archived: z.boolean(),
};
export const courseSummarySchema = conforms<CourseSummary>().as(z.object(courseSummaryShape).meta({ id: 'CourseSummary' }));

/** A stored content block of a lesson, as the lesson answers it; its content is checked by type on the way in. */
const contentBlock = z
  .object({
    id: z.string(),
    type: z.enum(CONTENT_BLOCK_TYPES),
    order: z.number().int(),
    lessonId: z.string(),
    content: z.record(z.string(), z.unknown()).meta({
      description:
        'Поля блока по его типу: text, src, alt, quizId… У текстового блока text — простой текст, html (необязательно) — форматированный текст: только p, br, strong, em, u, s, h2–h4, ul, ol, li, a (http, https, mailto), blockquote; остальное сервер удаляет, а text выводит из html.',
    }),
  })
  .meta({ id: 'ContentBlock' });

/** What a module and a lesson of a course both are: a titled, ordered, versioned part of it. */
const coursePartShape = {
  id,
  title: z.string(),
  description: z.string(),
  status: courseStatus,
  courseId: z.string(),
  position: z.number().int(),
  ...versionedRecord,
};
const lessonSchema = z.object({ ...coursePartShape, moduleId: z.string(), blocks: z.array(contentBlock) }).meta({ id: 'Lesson' });
const moduleSchema = z.object({ ...coursePartShape, lessons: z.array(lessonSchema) }).meta({ id: 'Module' });

// The content blocks are checked on their way in; their output type is wider than ContentBlock's.
export const courseSchema = z.object({ ...courseSummaryShape, modules: z.array(moduleSchema) }).meta({ id: 'Course' });
conforms<Pick<Course, Exclude<keyof Course, 'modules'>>>().as(z.object(courseSummaryShape));

const lessonOutlineSchema = z.object({
  id,
  title: z.string(),
  status: courseStatus,
  moduleId: z.string(),
  position: z.number().int(),
  blocksCount: z.number().int(),
  hasQuiz: z.boolean(),
  hasScorm: z.boolean(),
  version: z.number().int(),
  updatedAt: isoDateTime,
  retakeSince: isoDateTime
    .optional()
    .meta({ description: 'Опубликованная версия потребовала пройти урок заново: прохождения до этой даты не считаются' }),
});
export const courseOutlineSchema = conforms<CourseOutline>().as(
  z
    .object({
      ...courseSummaryShape,
      modules: z.array(
        z.object({
          id,
          title: z.string(),
          description: z.string(),
          position: z.number().int(),
          status: courseStatus,
          version: z.number().int(),
          lessons: z.array(lessonOutlineSchema),
        }),
      ),
    })
    .meta({ id: 'CourseOutline' }),
);

export const archivedCourseSchema = z
  .object({ archived: z.literal(true), message: z.string(), course: courseSummarySchema })
  .meta({ id: 'CourseArchived', description: 'Курс с попытками учащихся не удаляется, а скрывается в архив' });

const author = z.object({ id, email: z.string(), fullName: z.string() });
export const courseAuthorsSchema = conforms<CourseAuthors>().as(
  z.object({ owner: author.nullable(), coAuthors: z.array(author) }).meta({ id: 'CourseAuthors' }),
);

export { EXAMPLE_ID };

export { etagHeader };
