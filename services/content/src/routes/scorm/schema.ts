import { z } from 'zod';
import {
  LESSON_STATUSES,
  SCORM_VERSIONS,
  type ScormCourseUpload,
  type ScormLaunch,
  type ScormPackageSummary,
} from '@portal/contracts';
import { conforms, isoDateTime } from '@portal/service-kit';

const id = z.string().meta({ example: '6743a1f0c2b5e80012ab34cd' });

const scoSchema = z.object({
  id: z.string().meta({ example: 'item_1' }),
  title: z.string().meta({ example: 'Урок 1. Введение' }),
  launch: z.string().meta({ example: 'shared/launchpage.html' }),
  path: z.array(z.string()).meta({ description: 'Заголовки вложенных элементов организации, от внешнего к внутреннему' }),
});

const summaryShape = {
  id,
  courseId: id,
  title: z.string().meta({ example: 'Golf Explained' }),
  version: z.enum(SCORM_VERSIONS),
  edition: z.string().meta({ example: '2004 3rd Edition' }),
  scos: z.array(scoSchema),
  files: z.number().int(),
  bytes: z.number().int(),
  createdAt: isoDateTime,
};

export const scormPackageSchema = conforms<ScormPackageSummary>().as(z.object(summaryShape).meta({ id: 'ScormPackage' }));

const lessonOutline = z.object({
  id,
  title: z.string(),
  status: z.enum(LESSON_STATUSES),
  moduleId: id,
  position: z.number().int(),
  blocksCount: z.number().int(),
  hasQuiz: z.boolean(),
  hasScorm: z.boolean(),
  generated: z.boolean().optional(),
  version: z.number().int(),
  updatedAt: isoDateTime,
});

export const scormCourseUploadSchema = conforms<ScormCourseUpload>().as(
  z
    .object({
      ...summaryShape,
      modules: z.array(
        z.object({
          id,
          title: z.string(),
          description: z.string(),
          position: z.number().int(),
          status: z.enum(LESSON_STATUSES),
          generated: z.boolean().optional(),
          version: z.number().int(),
          lessons: z.array(lessonOutline),
        }),
      ),
    })
    .meta({ id: 'ScormCourseUpload' }),
);

export const scormLaunchAnswerSchema = conforms<ScormLaunch>().as(
  z
    .object({
      packageId: id,
      scoId: z.string(),
      version: z.enum(SCORM_VERSIONS),
      url: z.string().meta({ example: '/scorm/eyJwIjoi….bWFj/shared/launchpage.html' }),
      expiresAt: isoDateTime,
    })
    .meta({ id: 'ScormLaunch' }),
);
