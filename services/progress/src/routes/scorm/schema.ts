import { z } from 'zod';
import {
  exportFields,
  pagingFields,
  entityIdField,
  type Page,
  type ScormAttemptState,
  type ScormAttemptSummary,
  type ScormLessonAnalysis,
} from '@portal/contracts';
import { conforms, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

const id = z.string().meta({ example: EXAMPLE_ID });

/** An attempt's id in the path. */
export const scormAttemptParams = z.object({ id: entityIdField('id').meta({ description: 'Идентификатор попытки' }) });

/** `?final=true`: the commit scorm-again sends when the package ends its session (Terminate / LMSFinish). */
export const scormCommitQuery = z.object({ final: z.enum(['true', 'false']).optional() });

export const SCORM_ATTEMPTS_PAGE_SIZE = 20;

export const scormAttemptListQuery = z.object({
  courseId: entityIdField('courseId').optional(),
  lessonId: entityIdField('lessonId').optional(),
  userId: entityIdField('userId').optional(),
  ...pagingFields(SCORM_ATTEMPTS_PAGE_SIZE),
});

const statuses = {
  completionStatus: z
    .string()
    .meta({ example: 'completed', description: 'completed, incomplete, not attempted, unknown (1.2: its lesson_status)' }),
  successStatus: z.string().meta({ example: 'passed', description: 'passed, failed, unknown' }),
};

export const scormScoreSchema = z
  .object({ raw: z.number().nullable(), min: z.number().nullable(), max: z.number().nullable(), scaled: z.number().nullable() })
  .meta({ id: 'ScormScore' });

export const scormInteractionSchema = z
  .object({
    id: z.string(),
    type: z.string().meta({ example: 'choice' }),
    response: z.string().meta({ description: 'learner_response (1.2: student_response)' }),
    result: z.string().meta({ example: 'correct' }),
    latency: z.number().nullable().meta({ description: 'Seconds' }),
    correctResponses: z.array(z.string()),
  })
  .meta({ id: 'ScormInteraction' });

export const scormAttemptStateSchema = conforms<ScormAttemptState>().as(
  z
    .object({
      id,
      courseId: id,
      lessonId: id,
      packageId: id,
      scoId: z.string(),
      number: z.number().int(),
      entry: z.enum(['ab-initio', 'resume']),
      cmi: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The CMI tree last committed, for loadFromJSON' }),
      sequence: z.number().int(),
      ...statuses,
      completed: z.boolean(),
      mayStartNew: z.boolean(),
    })
    .meta({ id: 'ScormAttemptState' }),
);

export const scormCommitResultSchema = z
  .object({ result: z.literal(true), errorCode: z.literal(0) })
  .meta({ id: 'ScormCommitResult', description: 'As scorm-again expects it, also when the commit was already stored' });

export const scormAttemptSummarySchema = conforms<ScormAttemptSummary>().as(
  z
    .object({
      id,
      userId: id,
      userName: z.string().meta({ example: 'Анна Смирнова' }),
      courseId: id,
      lessonId: id,
      lessonTitle: z.string(),
      number: z.number().int(),
      ...statuses,
      score: scormScoreSchema,
      totalTimeSeconds: z.number(),
      sessionTimeSeconds: z.number(),
      interactions: z.array(scormInteractionSchema),
      startedAt: isoDateTime,
      updatedAt: isoDateTime,
      completedAt: isoDateTime.nullable(),
    })
    .meta({ id: 'ScormAttemptSummary' }),
);

export const scormAttemptPageSchema = conforms<Page<ScormAttemptSummary>>().as(
  z
    .object({
      data: z.array(scormAttemptSummarySchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
    })
    .meta({ id: 'ScormAttemptPage' }),
);

/** The list's filters without the page, every row, CSV or XLSX. */
export const scormAttemptExportQuery = scormAttemptListQuery.omit({ page: true, limit: true }).extend(exportFields);

/** A lesson's item analysis: the interactions its package reported, by id. */
export const scormAnalysisQuery = z.object({ courseId: entityIdField('courseId'), lessonId: entityIdField('lessonId') });

export const scormAnalysisSchema = conforms<ScormLessonAnalysis>().as(
  z
    .object({
      courseId: id,
      lessonId: id,
      attempts: z.number().int(),
      interactions: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          answered: z.number().int(),
          correct: z.number().int(),
          correctPercentage: z.number().int(),
          averageLatency: z.number().nullable(),
        }),
      ),
    })
    .meta({ id: 'ScormLessonAnalysis' }),
);
