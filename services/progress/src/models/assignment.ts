import { Schema, type InferRawDocType, type Types } from 'mongoose';
import { AUDIENCE_KINDS, ROLES, type Assignment, type AudienceKind, type Role } from '@portal/contracts';
import { indexNewestFirst, storeModel } from '@portal/service-kit';

/**
 * A training assignment. The audience is kept as its rule (people, a department, a role, everyone),
 * never as a resolved list: someone who joins the department later is in it the next time it is
 * read. The course's lessons (and which of them hold a quiz) are copied when it is created or edited,
 * so the status of a page of people is computed from this service's own records, with no call per
 * person or per course.
 */
export interface AssignmentDoc extends Omit<Assignment, 'id' | 'audience' | 'createdAt' | 'updatedAt'> {
  _id: Types.ObjectId;
  /** Lessons a learner sees (not hidden), and those of them holding a quiz. */
  lessonIds: string[];
  quizLessonIds: string[];
  audienceKind: AudienceKind;
  audienceUserIds: string[];
  audienceDepartment: string;
  audienceRole: Role | null;
  /** Whether everyone of the audience has been told it was assigned (the reminders worker sets it). */
  assignedNotified: boolean;
  /** A recurring assignment: the last day (YYYY-MM-DD) its people's own due days were looked at by the reminders. */
  recurringRemindedFor?: string;
  createdAt: Date;
  updatedAt: Date;
}

const assignmentSchema = new Schema<AssignmentDoc>(
  {
    courseId: { type: String, required: true },
    courseTitle: { type: String, default: '' },
    courseHours: { type: Number, default: 0 },
    lessonIds: { type: [String], default: [] },
    quizLessonIds: { type: [String], default: [] },
    audienceKind: { type: String, enum: AUDIENCE_KINDS, required: true },
    audienceUserIds: { type: [String], default: [] },
    audienceDepartment: { type: String, default: '' },
    audienceRole: { type: String, enum: [...ROLES, null], default: null },
    dueDate: { type: String, required: true },
    mandatory: { type: Boolean, default: true },
    recurrenceMonths: { type: Number, default: null },
    message: { type: String, default: '' },
    createdBy: { type: new Schema({ id: String, fullName: String }, { _id: false }), required: true },
    assignedNotified: { type: Boolean, default: false },
    recurringRemindedFor: { type: String },
  },
  { timestamps: true, versionKey: false },
);
// A learner's assignments: by each audience rule, in due order.
assignmentSchema.index({ audienceKind: 1, dueDate: 1, _id: 1 });
assignmentSchema.index({ audienceUserIds: 1, dueDate: 1 });
assignmentSchema.index({ audienceDepartment: 1, dueDate: 1 });
assignmentSchema.index({ audienceRole: 1, dueDate: 1 });
// The staff list, newest first, and one course's assignments.
indexNewestFirst(assignmentSchema);
assignmentSchema.index({ courseId: 1 });
// The reminders worker's «not yet told» assignments, and those due on a day.
assignmentSchema.index({ assignedNotified: 1 });
assignmentSchema.index({ dueDate: 1, _id: 1 });
assignmentSchema.index({ recurrenceMonths: 1, _id: 1 });

export const assignmentModel = storeModel<AssignmentDoc>('Assignment', assignmentSchema, 'assignments');

const extensionFields = {
  assignmentId: { type: String, required: true },
  userId: { type: String, required: true },
  dueDate: { type: String, required: true },
  updatedAt: { type: Date, required: true },
};

/** One person's own due date in an assignment (an extension for them alone). */
export type AssignmentExtensionDoc = InferRawDocType<typeof extensionFields>;

const extensionSchema = new Schema<AssignmentExtensionDoc>(extensionFields, { versionKey: false });
extensionSchema.index({ assignmentId: 1, userId: 1 }, { unique: true });
extensionSchema.index({ userId: 1 });

export const assignmentExtensionModel = storeModel<AssignmentExtensionDoc>(
  'AssignmentExtension',
  extensionSchema,
  'assignment_extensions',
);
