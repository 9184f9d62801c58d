import type { Assignment, AssignmentPerson, MyAssignment, PersonStatus } from '@portal/contracts';
import type { Principal } from '@portal/service-kit';
import { audienceOf } from '../commands/assignmentAudience';
import type { AssignmentDoc } from '../models/assignment';

export const presentAssignment = (doc: AssignmentDoc): Assignment => ({
  id: String(doc._id),
  courseId: doc.courseId,
  courseTitle: doc.courseTitle,
  courseHours: doc.courseHours,
  audience: audienceOf(doc),
  dueDate: doc.dueDate,
  mandatory: doc.mandatory,
  recurrenceMonths: doc.recurrenceMonths ?? null,
  message: doc.message,
  createdBy: { id: doc.createdBy.id, fullName: doc.createdBy.fullName },
  createdAt: new Date(doc.createdAt).toISOString(),
  updatedAt: new Date(doc.updatedAt).toISOString(),
});

export const presentMyAssignment = (doc: AssignmentDoc, status: PersonStatus): MyAssignment => ({
  assignmentId: String(doc._id),
  courseId: doc.courseId,
  courseTitle: doc.courseTitle,
  mandatory: doc.mandatory,
  message: doc.message,
  recurrenceMonths: doc.recurrenceMonths ?? null,
  ...status,
});

export const presentAssignmentPerson = (
  person: Principal,
  status: PersonStatus,
  certificateNumber: string | null = null,
): AssignmentPerson => ({
  userId: person.id,
  fullName: person.fullName,
  email: person.email,
  department: person.department ?? '',
  ...status,
  certificateNumber,
});
