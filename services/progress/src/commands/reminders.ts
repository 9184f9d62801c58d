import {
  DUE_SOON_DAYS,
  EXPORT_MAX_ROWS,
  notificationLinks,
  overdueSummaryText,
  reminderText,
  type NotificationKind,
} from '@portal/contracts';
import { op, type AuditPublisher, type Principal } from '@portal/service-kit';
import type { CertificateIssuer } from '../certificates/pdf';
import { endsAudience, type PeopleClient } from '../clients/people';
import type { AssignmentDoc } from '../models/assignment';
import { audiencePage } from './assignmentAudience';
import { assignmentsDueOn } from './assignments';
import { statusesFor } from './assignmentStatus';
import { notifyOnce, type NotificationDraft, type NotifyDeps } from './notifications';

export interface ReminderDeps extends NotifyDeps {
  people: PeopleClient;
  /** Enrolling people in programs records certificates issued on the way. */
  audit: AuditPublisher;
  certificateIssuer: CertificateIssuer;
}

/** People read, and notifications written, per round trip. */
export const REMINDER_BATCH = 100;
/** Assignments (and personal extensions) read per round trip of a run. */
const DOC_BATCH = 50;

type DueKind = 'due_soon' | 'due_today' | 'overdue';

/** `day` shifted by `days` calendar days (YYYY-MM-DD). */
export const shiftDay = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const reminderKey = (kind: NotificationKind, assignmentId: string, userId: string, day: string) =>
  `${kind}|${assignmentId}|${userId}|${day}`;

/**
 * «Вам назначен курс»: to every person of the audience, a hundred at a time (one auth call and one
 * store write each). Idempotent: a person told before is not told again.
 */
export async function remindAssigned(deps: ReminderDeps, doc: AssignmentDoc): Promise<number> {
  const id = String(doc._id);
  let sent = 0;
  for (let page = 1; (page - 1) * REMINDER_BATCH < EXPORT_MAX_ROWS; page += 1) {
    const batch = await audiencePage(deps.people, doc, page, REMINDER_BATCH);
    const { title, text, note } = reminderText('assigned', { ...doc, curatorName: doc.createdBy.fullName });
    const drafts: NotificationDraft[] = batch.data.map((p) => ({
      userId: p.id,
      email: p.email,
      fullName: p.fullName,
      kind: 'assigned',
      key: reminderKey('assigned', id, p.id, ''),
      title,
      text,
      note,
      link: notificationLinks.study(doc.courseId),
    }));
    sent += (await notifyOnce(deps, drafts)).length;
    if (!batch.data.length || endsAudience(batch, page, REMINDER_BATCH)) break;
  }
  await deps.models.assignments.updateOne({ _id: doc._id }, { $set: { assignedNotified: true } });
  return sent;
}

/**
 * One kind of due reminder for the people of one assignment whose own due day is `day` and who have
 * not completed it; `onlyIds` limits it to people with a personal extension to that day. Returns
 * how many of them are behind (for the curator's summary) and how many were told now.
 */
async function remindDue(
  deps: ReminderDeps,
  doc: AssignmentDoc,
  kind: DueKind,
  day: string,
  onlyIds?: string[],
): Promise<{ behind: number; sent: number }> {
  const id = String(doc._id);
  let behind = 0;
  let sent = 0;
  for (let page = 1; (page - 1) * REMINDER_BATCH < EXPORT_MAX_ROWS; page += 1) {
    const batch = await audiencePage(deps.people, doc, page, REMINDER_BATCH, onlyIds);
    if (!batch.data.length) break;
    const statuses = await statusesFor(
      deps.models,
      [doc],
      batch.data.map((p) => p.id),
    );
    // A recurring assignment is due again after a completion: «завершён» until then, and still reminded.
    const due = batch.data.filter((p) => {
      const s = statuses.get(`${id}|${p.id}`);
      return s && s.dueDate === day && (s.status !== 'completed' || !!doc.recurrenceMonths);
    });
    behind += due.length;
    const { title, text } = reminderText(kind, { courseTitle: doc.courseTitle, dueDate: day });
    const stored = await notifyOnce(
      deps,
      due.map((p: Principal) => ({
        userId: p.id,
        email: p.email,
        fullName: p.fullName,
        kind,
        key: reminderKey(kind, id, p.id, day),
        title,
        text,
        link: notificationLinks.study(doc.courseId),
      })),
    );
    sent += stored.length;
    if (endsAudience(batch, page, REMINDER_BATCH)) break;
  }
  return { behind, sent };
}

/** The curator who assigned it hears once per assignment and due day how many missed it. */
async function summariseOverdue(deps: ReminderDeps, doc: AssignmentDoc, day: string, behind: number): Promise<number> {
  if (!behind) return 0;
  const [curator] = await deps.people.users([doc.createdBy.id]);
  const { title, text } = overdueSummaryText({ courseTitle: doc.courseTitle, dueDate: day, count: behind });
  const stored = await notifyOnce(deps, [
    {
      userId: doc.createdBy.id,
      email: curator?.email,
      fullName: curator?.fullName,
      kind: 'overdue_summary',
      key: reminderKey('overdue_summary', String(doc._id), doc.createdBy.id, day),
      title,
      text,
      link: notificationLinks.assignment(String(doc._id)),
    },
  ]);
  return stored.length;
}

export interface ReminderRun {
  assigned: number;
  dueSoon: number;
  dueToday: number;
  overdue: number;
  summaries: number;
}

/**
 * Everything due to be said on `today` (YYYY-MM-DD, the portal's calendar): «назначен» for
 * assignments nobody was told of yet, «скоро срок» three days before a person's due day, «сегодня
 * последний день» on it, «просрочен» the day after (and the curator's summary). Store work goes in
 * batches (50 assignments, 100 people); every notification has a unique key, so two replicas or a
 * second run of the same day tell nobody twice.
 */
export async function runReminders(deps: ReminderDeps, today: string): Promise<ReminderRun> {
  const run: ReminderRun = { assigned: 0, dueSoon: 0, dueToday: 0, overdue: 0, summaries: 0 };
  for (;;) {
    const fresh = await deps.models.assignments
      .find({ assignedNotified: false })
      .sort({ _id: 1 })
      .limit(DOC_BATCH)
      .lean<AssignmentDoc[]>();
    for (const doc of fresh) run.assigned += await remindAssigned(deps, doc);
    if (fresh.length < DOC_BATCH) break;
  }
  const plan: Array<[DueKind, string, keyof ReminderRun]> = [
    ['due_soon', shiftDay(today, DUE_SOON_DAYS), 'dueSoon'],
    ['due_today', today, 'dueToday'],
    ['overdue', shiftDay(today, -1), 'overdue'],
  ];
  for (const [kind, day, counter] of plan) {
    for (const doc of await assignmentsDueOn(deps.models, day)) {
      const { behind, sent } = await remindDue(deps, doc, kind, day);
      run[counter] += sent;
      if (kind === 'overdue') run.summaries += await summariseOverdue(deps, doc, day, behind);
    }
    // People whose own (extended) due day is this one.
    let after: string | null = null;
    for (;;) {
      const extensions: Array<{ _id: unknown; assignmentId: string; userId: string }> = await deps.models.assignmentExtensions
        .find(after ? { dueDate: day, _id: op({ $gt: after }) } : { dueDate: day }, { assignmentId: 1, userId: 1 })
        .sort({ _id: 1 })
        .limit(REMINDER_BATCH)
        .lean();
      if (!extensions.length) break;
      after = String(extensions[extensions.length - 1]._id);
      const byAssignment = new Map<string, string[]>();
      for (const e of extensions) byAssignment.set(e.assignmentId, [...(byAssignment.get(e.assignmentId) ?? []), e.userId]);
      const docs = await deps.models.assignments.find({ _id: op({ $in: [...byAssignment.keys()] }) }).lean<AssignmentDoc[]>();
      for (const doc of docs) {
        const { behind, sent } = await remindDue(deps, doc, kind, day, byAssignment.get(String(doc._id)));
        run[counter] += sent;
        if (kind === 'overdue') run.summaries += await summariseOverdue(deps, doc, day, behind);
      }
      if (extensions.length < REMINDER_BATCH) break;
    }
  }
  // Recurring assignments: each person is due again `recurrenceMonths` after their own last
  // completion, so their people are looked at once a day, whatever the assignment's first due day.
  for (;;) {
    const recurring = await deps.models.assignments
      .find({ recurrenceMonths: op({ $gt: 0 }), recurringRemindedFor: op({ $ne: today }) })
      .sort({ _id: 1 })
      .limit(DOC_BATCH)
      .lean<AssignmentDoc[]>();
    for (const doc of recurring) {
      for (const [kind, day, counter] of plan) {
        const { behind, sent } = await remindDue(deps, doc, kind, day);
        run[counter] += sent;
        if (kind === 'overdue') run.summaries += await summariseOverdue(deps, doc, day, behind);
      }
      await deps.models.assignments.updateOne({ _id: doc._id }, { $set: { recurringRemindedFor: today } });
    }
    if (recurring.length < DOC_BATCH) break;
  }
  return run;
}
