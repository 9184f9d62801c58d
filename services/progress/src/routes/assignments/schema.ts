import { z } from 'zod';
import {
  ASSIGNMENT_STATUSES,
  assignmentListQuerySchema,
  audienceSchema,
  entityIdField,
  type Assignment,
  type AssignmentPerson,
  type AssignmentReport,
  type MyAssignment,
  type Page,
  type PersonAssignments,
} from '@portal/contracts';
import { conforms, countedPageFields, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

const day = z.string().meta({ format: 'date', example: '2026-12-31' });
const id = z.string().meta({ example: EXAMPLE_ID });

/** An assignment's id in the path (any text up to 100 characters: an unknown one is 404). */
export const assignmentParams = z.object({
  id: z.string().max(100).meta({ description: 'Идентификатор назначения', example: EXAMPLE_ID }),
});

/** The person whose assignments are read. */
export const personParams = z.object({
  userId: entityIdField('userId').meta({ description: 'Идентификатор пользователя', example: EXAMPLE_ID }),
});

/** A learner's own list: paged, and optionally one course's. */
export const myAssignmentsQuery = assignmentListQuerySchema.extend({ courseId: entityIdField('courseId').optional() });

export const assignmentReportQuery = z.object({
  department: z.string().trim().min(1).max(120).optional().meta({ description: 'Только люди этого подразделения' }),
});

/** A page of a list whose count stops at a cap. */
const paged = countedPageFields;

export const assignmentSchema = conforms<Assignment>().as(
  z
    .object({
      id,
      courseId: id,
      courseTitle: z.string().meta({ example: 'Охрана труда' }),
      courseHours: z.number(),
      audience: audienceSchema,
      dueDate: day,
      mandatory: z.boolean(),
      recurrenceMonths: z.number().int().nullable(),
      message: z.string(),
      createdBy: z.object({ id, fullName: z.string() }),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
    })
    .meta({ id: 'Assignment' }),
);

export const assignmentPageSchema = conforms<Page<Assignment>>().as(
  z.object(paged(assignmentSchema)).meta({ id: 'AssignmentPage' }),
);

const personStatusFields = {
  status: z.enum(ASSIGNMENT_STATUSES),
  dueDate: day,
  daysLeft: z.number().int().meta({ description: 'Дней до срока: 0 в последний день, меньше нуля — просрочено' }),
  completedAt: isoDateTime.nullable(),
};

export const myAssignmentSchema = conforms<MyAssignment>().as(
  z
    .object({
      assignmentId: id,
      courseId: id,
      courseTitle: z.string(),
      mandatory: z.boolean(),
      message: z.string(),
      recurrenceMonths: z.number().int().nullable(),
      ...personStatusFields,
    })
    .meta({ id: 'MyAssignment' }),
);

export const myAssignmentPageSchema = conforms<Page<MyAssignment>>().as(
  z.object(paged(myAssignmentSchema)).meta({ id: 'MyAssignmentPage' }),
);

export const assignmentPersonSchema = conforms<AssignmentPerson>().as(
  z
    .object({
      userId: id,
      fullName: z.string(),
      email: z.string(),
      department: z.string(),
      ...personStatusFields,
      certificateNumber: z.string().nullable().meta({ example: 'C-2026-7KQ2M9XA' }),
    })
    .meta({ id: 'AssignmentPerson' }),
);

export const assignmentPersonPageSchema = conforms<Page<AssignmentPerson>>().as(
  z.object(paged(assignmentPersonSchema)).meta({ id: 'AssignmentPersonPage' }),
);

export const assignmentReportSchema = conforms<AssignmentReport>().as(
  z
    .object({
      assignmentId: id,
      assigned: z.number().int(),
      completed: z.number().int(),
      inProgress: z.number().int(),
      notStarted: z.number().int(),
      overdue: z.number().int(),
      percent: z.number().int(),
      completedByDay: z.array(z.object({ date: day, count: z.number().int() })),
    })
    .meta({ id: 'AssignmentReport' }),
);

export const personAssignmentsSchema = conforms<PersonAssignments>().as(
  z
    .object({
      person: z.object({ id, fullName: z.string(), email: z.string(), department: z.string() }),
      data: z.array(myAssignmentSchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
    })
    .meta({ id: 'PersonAssignments' }),
);
