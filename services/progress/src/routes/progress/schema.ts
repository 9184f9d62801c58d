import { z } from 'zod';
import {
  entityIdField,
  type CourseProgress,
  type LessonCompleteResult,
  type LessonCompletion,
  type MyCourseProgress,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

/** The lesson marked completed. */
export const lessonParams = z.object({
  lessonId: entityIdField('lessonId').meta({ description: 'Идентификатор урока', example: EXAMPLE_ID }),
});

/** The course whose progress is read. */
export const courseParams = z.object({
  courseId: entityIdField('courseId').meta({ description: 'Идентификатор курса', example: EXAMPLE_ID }),
});

const moduleProgress = z.object({
  moduleId: z.string(),
  totalLessons: z.number().int(),
  completedLessons: z.number().int(),
  isCompleted: z.boolean(),
});

export const courseProgressSchema = conforms<CourseProgress>().as(
  z
    .object({
      courseId: z.string(),
      totalLessons: z.number().int(),
      completedLessons: z.number().int(),
      percentage: z.number(),
      completedLessonIds: z.array(z.string()),
      modules: z.array(moduleProgress),
      isCompleted: z.boolean(),
      completedAt: isoDateTime.nullable(),
      awaitingReviewLessonIds: z.array(z.string()).meta({ description: 'Уроки, ответ теста которых ожидает проверки' }),
      attemptedLessonIds: z.array(z.string()).meta({ description: 'Уроки, тест которых начат или не пройден' }),
    })
    .meta({ id: 'CourseProgress' }),
);

export const lessonCompleteResultSchema = conforms<LessonCompleteResult>().as(
  z
    .object({
      lessonId: z.string(),
      courseId: z.string(),
      completedAt: isoDateTime,
      created: z.boolean(),
      progress: courseProgressSchema,
    })
    .meta({ id: 'LessonCompleteResult' }),
);

export const lessonCompletionSchema = conforms<LessonCompletion>().as(
  z.object({ lessonId: z.string(), courseId: z.string(), completedAt: isoDateTime }).meta({ id: 'LessonCompletion' }),
);

export const myCourseProgressSchema = conforms<MyCourseProgress>().as(
  z
    .object({
      courseId: z.string(),
      completedLessons: z.array(z.string()),
      lastCompletedAt: isoDateTime,
      isCompleted: z.boolean(),
      completedAt: isoDateTime.nullable(),
    })
    .meta({ id: 'MyCourseProgress' }),
);
