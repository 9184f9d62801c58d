import { Schema, type Types } from 'mongoose';
import {
  AUDIENCE_KINDS,
  PROGRAM_PERSON_STATUSES,
  PROGRAM_STATUSES,
  ROLES,
  STAGE_DUE_FROM,
  type ProgramPersonStatus,
  type ProgramStatus,
  type Role,
  type StageDueFrom,
} from '@portal/contracts';
import { bumpOnWrite, indexNewestFirst, storeModel, versionPlugin } from '@portal/service-kit';

/**
 * A course of a stage as it was when the program was saved: its title, whether it was published, and
 * its lessons (those a learner sees), so a learner's percent is counted from this service's records.
 */
export interface StageCourseDoc {
  courseId: string;
  title: string;
  published: boolean;
  lessonIds: string[];
  quizLessonIds: string[];
}

export interface StageDoc {
  key: string;
  title: string;
  courses: StageCourseDoc[];
  required: number | null;
  dueDays: number;
  dueFrom: StageDueFrom;
  locked: boolean;
}

/** A learning program: ordered stages of published courses (docs/decisions/092). */
export interface ProgramDoc {
  _id: Types.ObjectId;
  title: string;
  description: string;
  certificate: boolean;
  status: ProgramStatus;
  stages: StageDoc[];
  owner: { id: string; fullName: string };
  coAuthorIds: string[];
  /** Every course of every stage: the programs holding a course are found by it. */
  courseIds: string[];
  version?: number;
  createdAt: Date;
  updatedAt: Date;
}

const stageCourseSchema = new Schema<StageCourseDoc>(
  {
    courseId: { type: String, required: true },
    title: { type: String, default: '' },
    published: { type: Boolean, default: true },
    lessonIds: { type: [String], default: [] },
    quizLessonIds: { type: [String], default: [] },
  },
  { _id: false },
);

const stageSchema = new Schema<StageDoc>(
  {
    key: { type: String, required: true },
    title: { type: String, required: true },
    courses: { type: [stageCourseSchema], default: [] },
    required: { type: Number, default: null },
    dueDays: { type: Number, required: true },
    dueFrom: { type: String, enum: STAGE_DUE_FROM, default: 'assigned' },
    locked: { type: Boolean, default: false },
  },
  { _id: false },
);

const programSchema = new Schema<ProgramDoc>(
  {
    title: { type: String, required: true },
    description: { type: String, default: '' },
    certificate: { type: Boolean, default: false },
    status: { type: String, enum: PROGRAM_STATUSES, default: 'active' },
    stages: { type: [stageSchema], default: [] },
    owner: { type: new Schema({ id: String, fullName: String }, { _id: false }), required: true },
    coAuthorIds: { type: [String], default: [] },
    courseIds: { type: [String], default: [] },
  },
  { timestamps: true, versionKey: false },
);
programSchema.plugin(versionPlugin);
indexNewestFirst(programSchema);
programSchema.index({ status: 1, updatedAt: -1, _id: -1 });
programSchema.index({ courseIds: 1 });

export const programModel = storeModel<ProgramDoc>('Program', programSchema, 'programs');

/**
 * A program assigned to an audience (kept as its rule, as a course assignment's is). `lockedCourseIds`
 * are the courses of its locked stages: a quiz start or a lesson completion asks for them by course,
 * in one read, before it looks at anyone's stages.
 */
export interface ProgramAssignmentDoc {
  _id: Types.ObjectId;
  programId: string;
  programTitle: string;
  audienceKind: (typeof AUDIENCE_KINDS)[number];
  audienceUserIds: string[];
  audienceDepartment: string;
  audienceRole: Role | null;
  mandatory: boolean;
  recurrenceMonths: number | null;
  message: string;
  /** The day it was assigned (YYYY-MM-DD, Moscow): «от назначения» deadlines count from it. */
  startDate: string;
  lockedCourseIds: string[];
  createdBy: { id: string; fullName: string };
  /** The last time its audience was gone through to enrol new people (the daily run). */
  enrolledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const programAssignmentSchema = new Schema<ProgramAssignmentDoc>(
  {
    programId: { type: String, required: true },
    programTitle: { type: String, default: '' },
    audienceKind: { type: String, enum: AUDIENCE_KINDS, required: true },
    audienceUserIds: { type: [String], default: [] },
    audienceDepartment: { type: String, default: '' },
    audienceRole: { type: String, enum: [...ROLES, null], default: null },
    mandatory: { type: Boolean, default: true },
    recurrenceMonths: { type: Number, default: null },
    message: { type: String, default: '' },
    startDate: { type: String, required: true },
    lockedCourseIds: { type: [String], default: [] },
    createdBy: { type: new Schema({ id: String, fullName: String }, { _id: false }), required: true },
    enrolledAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
indexNewestFirst(programAssignmentSchema);
programAssignmentSchema.index({ programId: 1, createdAt: -1 });
programAssignmentSchema.index({ lockedCourseIds: 1 });
programAssignmentSchema.index({ audienceKind: 1 });
programAssignmentSchema.index({ audienceUserIds: 1 });
programAssignmentSchema.index({ audienceDepartment: 1 });
programAssignmentSchema.index({ audienceRole: 1 });
programAssignmentSchema.index({ enrolledAt: 1, _id: 1 });

/**
 * The version of what is kept of the program assignments (commands/programEnrolment.ts, the locks a
 * lesson completion and a quiz start check): every write of an assignment moves it.
 */
export const PROGRAM_ASSIGNMENTS_VERSION = 'program_assignments';
bumpOnWrite(programAssignmentSchema, PROGRAM_ASSIGNMENTS_VERSION);

export const programAssignmentModel = storeModel<ProgramAssignmentDoc>(
  'ProgramAssignment',
  programAssignmentSchema,
  'program_assignments',
);

/**
 * One person in one program assignment: their stages as last computed, moved by the events that
 * change them (a course completed, an extension, the program edited, a new cycle), never recounted on
 * a read. The report's tallies move with them; which courses are closed follows from `stagesCompleted`.
 */
export interface ProgramMemberDoc {
  _id: Types.ObjectId;
  assignmentId: string;
  programId: string;
  userId: string;
  fullName: string;
  email: string;
  department: string;
  /** 1 for the first time through; a recurring program begins again as cycle 2, 3 … */
  cycle: number;
  /** The day this cycle began: «от назначения» deadlines count from it. */
  startDate: string;
  /** Course completions from this moment on count in this cycle (null: any). */
  validFrom: Date | null;
  stagesCompleted: number;
  /** The first incomplete stage (null once all are complete), and its deadline. */
  currentStageKey: string | null;
  currentDue: string | null;
  /** The earliest deadline of an incomplete stage: the person is overdue once it is past. */
  earliestDue: string | null;
  completedAt: Date | null;
  /**
   * Where they stand as of their last change (or the daily run, which turns «в процессе» into «есть
   * просрочка» once a deadline passes): the report's people are filtered by it with an equality the
   * store answers from its index.
   */
  state: ProgramPersonStatus;
  certificateNumber: string | null;
  /** The person's own deadlines, by stage key. */
  extensions: Record<string, string>;
  /** No longer in the audience (moved to another department, or no longer named): kept, not counted. */
  left: boolean;
  /** The last pass through the audience that found them (the daily run marks the others as left). */
  enrolPass: string;
  updatedAt: Date;
}

const programMemberSchema = new Schema<ProgramMemberDoc>(
  {
    assignmentId: { type: String, required: true },
    programId: { type: String, required: true },
    userId: { type: String, required: true },
    fullName: { type: String, default: '' },
    email: { type: String, default: '' },
    department: { type: String, default: '' },
    cycle: { type: Number, default: 1 },
    startDate: { type: String, required: true },
    validFrom: { type: Date, default: null },
    stagesCompleted: { type: Number, default: 0 },
    currentStageKey: { type: String, default: null },
    currentDue: { type: String, default: null },
    earliestDue: { type: String, default: null },
    completedAt: { type: Date, default: null },
    state: { type: String, enum: PROGRAM_PERSON_STATUSES, default: 'in_progress' },
    certificateNumber: { type: String, default: null },
    extensions: { type: Schema.Types.Mixed, default: {} },
    left: { type: Boolean, default: false },
    enrolPass: { type: String, default: '' },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
programMemberSchema.index({ assignmentId: 1, userId: 1 }, { unique: true });
programMemberSchema.index({ userId: 1, left: 1 });
programMemberSchema.index({ programId: 1, _id: 1 });
// The report's people, by name; the daily run's pass through an assignment.
programMemberSchema.index({ assignmentId: 1, left: 1, fullName: 1, _id: 1 });
programMemberSchema.index({ assignmentId: 1, left: 1, state: 1, fullName: 1, _id: 1 });
// The daily run's «просрочен»: people in progress whose earliest deadline has passed.
programMemberSchema.index({ state: 1, earliestDue: 1 });
programMemberSchema.index({ assignmentId: 1, _id: 1 });
// The daily reminders: people whose stage is due on a day.
programMemberSchema.index({ currentDue: 1, _id: 1 });
// A recurring program's people who completed it: a new cycle begins for them.
programMemberSchema.index({ completedAt: 1 });

export const programMemberModel = storeModel<ProgramMemberDoc>('ProgramMember', programMemberSchema, 'program_members');

/**
 * The report's figures of one assignment and one department, kept as the members move (each change of
 * a member adds its difference): how many are assigned and completed, how many stand on each stage
 * (`at`), have completed how many stages (`past`), are due on each day on their current stage (`due`,
 * by stage) and have their earliest open deadline on each day (`early`). «Просрочен» is read off the
 * days at read time, so nothing needs to change when only the calendar moves.
 */
export interface ProgramTallyDoc {
  _id: string;
  assignmentId: string;
  department: string;
  assigned: number;
  completed: number;
  at: Record<string, number>;
  past: Record<string, number>;
  due: Record<string, Record<string, number>>;
  early: Record<string, number>;
}

const programTallySchema = new Schema<ProgramTallyDoc>(
  {
    _id: { type: String, required: true },
    assignmentId: { type: String, required: true },
    department: { type: String, default: '' },
    assigned: { type: Number, default: 0 },
    completed: { type: Number, default: 0 },
    at: { type: Schema.Types.Mixed, default: {} },
    past: { type: Schema.Types.Mixed, default: {} },
    due: { type: Schema.Types.Mixed, default: {} },
    early: { type: Schema.Types.Mixed, default: {} },
  },
  { versionKey: false, minimize: false },
);
programTallySchema.index({ assignmentId: 1 });

export const programTallyModel = storeModel<ProgramTallyDoc>('ProgramTally', programTallySchema, 'program_tallies');
