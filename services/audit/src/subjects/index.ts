import type { Model } from 'mongoose';
import { auditDetailsOf } from '@portal/contracts';
import { everyOccurrence, SUBJECT_EXPORT_LIMIT, updateEach, type SubjectHandlers } from '@portal/service-kit';
import { trailRewritten, type AuditRecordDoc } from '../models/record';

/** Records read per round trip of the cursor when a person is forgotten. */
const BATCH = 100;

/**
 * The audit trail about a person: what they did, and what was done to their account. Forgetting
 * them keeps every record (the trail must stay whole) with the alias in place of their name and
 * email, in the author and in the details alike.
 */
export function auditSubjects(records: Model<AuditRecordDoc>): SubjectHandlers {
  return {
    async collect(userId) {
      const [done, about] = await Promise.all([
        records.find({ actorId: userId }).limit(SUBJECT_EXPORT_LIMIT).lean(),
        records.find({ entityId: userId }).limit(SUBJECT_EXPORT_LIMIT).lean(),
      ]);
      // A person reads each record's details, in today's words; its code and data are how it is kept.
      const readable = (list: AuditRecordDoc[]) =>
        list.map(({ code, data, ...r }) => ({ ...r, details: auditDetailsOf({ code, data, details: r.details }) }));
      return { 'Действия человека': readable(done), 'Действия с его учётной записью': readable(about) };
    },

    /**
     * Their own records by `actorId` (an equality), and every record whose details name them (a
     * search of the whole trail, read through one cursor: a rare ADMIN action, not a page).
     */
    async anonymise(userId, { alias, fullName, email }) {
      // The edits of their account hold the names and emails it had before (each change's before and
      // after): those are theirs too, wherever the trail mentions them (a record from before an edit).
      const edits = await records
        .find({ entityId: userId, code: 'user.updated' })
        .select({ data: 1 })
        .lean<Array<Pick<AuditRecordDoc, 'data'>>>();
      const known = new Set([email, fullName, ...edits.flatMap((edit) => formerNames(edit.data))]);
      const names = [...known].filter((text) => text.trim().length > 2).map(everyOccurrence);
      const scrub = (text: string) => names.reduce((out, pattern) => out.replace(pattern, alias), text);
      // The record reads from its data as well as from its text: both lose the name.
      const scrubData = (value: unknown): unknown =>
        typeof value === 'string'
          ? scrub(value)
          : Array.isArray(value)
            ? value.map(scrubData)
            : value && typeof value === 'object'
              ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubData(v)]))
              : value;
      const mentions = names.map((pattern) => ({ details: pattern }));
      const cursor = records
        .find({ $or: [{ actorId: userId }, { entityId: userId }, ...mentions] })
        .select({ details: 1, actorId: 1, data: 1 })
        .lean<Array<Pick<AuditRecordDoc, '_id' | 'details' | 'actorId' | 'data'>>>()
        .cursor({ batchSize: BATCH });
      let batch: Parameters<typeof updateEach>[1][number][] = [];
      let changed = 0;
      const flush = async () => {
        if (batch.length) changed += (await updateEach(records, batch)).modified;
        batch = [];
      };
      try {
        for await (const r of cursor) {
          const set: Record<string, unknown> = { details: scrub(r.details ?? '') };
          if (r.data) set.data = scrubData(r.data);
          if (r.actorId === userId) Object.assign(set, { 'actor.fullName': alias, 'actor.email': '' });
          batch.push({ updateOne: { filter: { _id: r._id }, update: { $set: set } } });
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      } finally {
        await cursor.close().catch(() => undefined);
        // The history's kept pages (routes/audit) would still show the name: a bulk write moves no
        // version by itself, so this one does, whether the rewrite ended or stopped half way.
        await trailRewritten(records.db);
      }
      return { 'Журнал действий': changed };
    },
  };
}

/** The names and emails an edit of an account changed, before and after (`changes.fullName`, `changes.email`). */
function formerNames(data: AuditRecordDoc['data']): string[] {
  const changes = (data?.changes ?? {}) as Record<string, { from?: unknown; to?: unknown } | undefined>;
  return [changes.fullName, changes.email]
    .flatMap((change) => [change?.from, change?.to])
    .filter((value): value is string => typeof value === 'string');
}
