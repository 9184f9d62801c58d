import { z } from 'zod';
import {
  PROGRAM_PERSON_STATUSES,
  PROGRAM_STATUSES,
  STAGE_DUE_FROM,
  STAGE_STATUSES,
  audienceSchema,
  entityIdField,
  type MyProgram,
  type MyProgramPage,
  type Program,
  type ProgramAssignment,
  type ProgramAssignmentPage,
  type ProgramPage,
  type ProgramPeoplePage,
  type ProgramPersonDetail,
  type ProgramReport,
  type ProgramTemplate,
} from '@portal/contracts';
import { conforms, countedPageFields, EXAMPLE_ID, isoDateTime } from '@portal/service-kit';

const id = z.string().meta({ example: EXAMPLE_ID });
const day = z.string().meta({ format: 'date', example: '2026-12-31' });
const person = z.object({ id, fullName: z.string() });
/** A page of a list whose count stops at a cap. */
const paged = countedPageFields;

export const programParams = z.object({
  id: entityIdField('id').meta({ description: 'Идентификатор программы', example: EXAMPLE_ID }),
});
export const programAssignmentParams = z.object({
  id: entityIdField('id').meta({ description: 'Идентификатор назначения программы', example: EXAMPLE_ID }),
});
export const programPersonParams = programAssignmentParams.extend({
  userId: entityIdField('userId').meta({ description: 'Идентификатор сотрудника', example: EXAMPLE_ID }),
});
export const myProgramParams = z.object({
  assignmentId: entityIdField('assignmentId').meta({ description: 'Идентификатор назначения программы', example: EXAMPLE_ID }),
});
export const templateParams = z.object({
  key: z.string().max(40).meta({ description: 'Ключ шаблона', example: 'onboarding' }),
});

const stageFields = {
  key: z.string().meta({ example: 'safety' }),
  title: z.string().meta({ example: 'Охрана труда' }),
  required: z.number().int().nullable().meta({ description: 'null — все курсы этапа; N — любые N' }),
  dueDays: z.number().int(),
  dueFrom: z.enum(STAGE_DUE_FROM),
  locked: z.boolean().meta({ description: 'Закрыт до завершения предыдущего этапа' }),
};

export const programSchema = conforms<Program>().as(
  z
    .object({
      id,
      title: z.string().meta({ example: 'Адаптация нового сотрудника' }),
      description: z.string(),
      certificate: z.boolean(),
      status: z.enum(PROGRAM_STATUSES),
      stages: z.array(
        z.object({
          ...stageFields,
          courses: z.array(z.object({ id, title: z.string(), published: z.boolean() })),
        }),
      ),
      owner: person,
      coAuthorIds: z.array(z.string()),
      coAuthors: z.array(person),
      canEdit: z.boolean(),
      version: z.number().int(),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
    })
    .meta({ id: 'Program' }),
);

export const programPageSchema = conforms<ProgramPage>().as(
  z
    .object(
      paged(
        z.object({
          id,
          title: z.string(),
          status: z.enum(PROGRAM_STATUSES),
          stageCount: z.number().int(),
          courseCount: z.number().int(),
          owner: person,
          canEdit: z.boolean(),
          updatedAt: isoDateTime,
        }),
      ),
    )
    .meta({ id: 'ProgramPage' }),
);

export const programTemplatesSchema = conforms<ProgramTemplate[]>().as(
  z
    .array(z.object({ key: z.string(), title: z.string(), description: z.string(), stages: z.array(z.object(stageFields)) }))
    .meta({ id: 'ProgramTemplates' }),
);

export const programAssignmentSchema = conforms<ProgramAssignment>().as(
  z
    .object({
      id,
      programId: id,
      programTitle: z.string(),
      audience: audienceSchema,
      mandatory: z.boolean(),
      recurrenceMonths: z.number().int().nullable(),
      message: z.string(),
      startDate: day,
      createdBy: person,
      createdAt: isoDateTime,
    })
    .meta({ id: 'ProgramAssignment' }),
);

export const programAssignmentPageSchema = conforms<ProgramAssignmentPage>().as(
  z.object(paged(programAssignmentSchema)).meta({ id: 'ProgramAssignmentPage' }),
);

const currentStage = {
  key: z.string(),
  title: z.string(),
  status: z.enum(STAGE_STATUSES),
  dueDate: day.nullable(),
};

const myProgramFields = {
  assignmentId: id,
  programId: id,
  title: z.string(),
  description: z.string(),
  status: z.enum(PROGRAM_PERSON_STATUSES),
  mandatory: z.boolean(),
  message: z.string(),
  stages: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      status: z.enum(STAGE_STATUSES),
      dueDate: day.nullable(),
      daysLeft: z.number().int().nullable(),
      dueDays: z.number().int(),
      dueFrom: z.enum(STAGE_DUE_FROM),
      completedAt: isoDateTime.nullable(),
      opensAfter: z.string().nullable().meta({ description: 'Этап, после которого откроется закрытый' }),
      required: z.number().int(),
      done: z.number().int(),
      courses: z.array(z.object({ courseId: id, title: z.string(), completed: z.boolean(), percent: z.number().int() })),
    }),
  ),
  completedAt: isoDateTime.nullable(),
  certificateNumber: z.string().nullable(),
};

export const myProgramSchema = conforms<MyProgram>().as(z.object(myProgramFields).meta({ id: 'MyProgram' }));

export const programPersonDetailSchema = conforms<ProgramPersonDetail>().as(
  z
    .object({ ...myProgramFields, person: z.object({ id, fullName: z.string(), email: z.string(), department: z.string() }) })
    .meta({ id: 'ProgramPersonDetail' }),
);

export const myProgramPageSchema = conforms<MyProgramPage>().as(
  z
    .object(
      paged(
        z.object({
          assignmentId: id,
          programId: id,
          title: z.string(),
          status: z.enum(PROGRAM_PERSON_STATUSES),
          stageCount: z.number().int(),
          stagesCompleted: z.number().int(),
          currentStage: z.object({ ...currentStage, daysLeft: z.number().int().nullable() }).nullable(),
        }),
      ),
    )
    .meta({ id: 'MyProgramPage' }),
);

export const programPeoplePageSchema = conforms<ProgramPeoplePage>().as(
  z
    .object(
      paged(
        z.object({
          userId: id,
          fullName: z.string(),
          email: z.string(),
          department: z.string(),
          status: z.enum(PROGRAM_PERSON_STATUSES),
          stagesCompleted: z.number().int(),
          currentStage: z.object(currentStage).nullable(),
          completedAt: isoDateTime.nullable(),
          certificateNumber: z.string().nullable(),
        }),
      ),
    )
    .meta({ id: 'ProgramPeoplePage' }),
);

export const programReportSchema = conforms<ProgramReport>().as(
  z
    .object({
      assignmentId: id,
      programId: id,
      title: z.string(),
      assigned: z.number().int(),
      completed: z.number().int(),
      overdue: z.number().int(),
      percent: z.number().int(),
      stages: z.array(
        z.object({
          key: z.string(),
          title: z.string(),
          current: z.number().int(),
          completed: z.number().int(),
          overdue: z.number().int(),
        }),
      ),
    })
    .meta({ id: 'ProgramReport' }),
);
