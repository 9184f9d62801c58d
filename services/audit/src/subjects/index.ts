import type { Model } from 'mongoose';
import { everyOccurrence, SUBJECT_EXPORT_LIMIT, type SubjectHandlers } from '@portal/service-kit';
import type { AuditRecordDoc } from '../models/record';

/** Records rewritten per store round trip when a person is forgotten. */
const BATCH = 500;

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
      return { 'Действия человека': done, 'Действия с его учётной записью': about };
    },

    /**
     * Their own records by `actorId` (an equality), and every record whose details name them (a
     * search of the whole trail, read through one cursor: a rare ADMIN action, not a page).
     */
    async anonymise(userId, { alias, fullName, email }) {
      const names = [email, fullName].filter((text) => text.trim().length > 2).map(everyOccurrence);
      const scrub = (text: string) => names.reduce((out, pattern) => out.replace(pattern, alias), text);
      const mentions = names.map((pattern) => ({ details: pattern }));
      const cursor = records
        .find({ $or: [{ actorId: userId }, { entityId: userId }, ...mentions] })
        .select({ details: 1, actorId: 1 })
        .lean<Array<Pick<AuditRecordDoc, '_id' | 'details' | 'actorId'>>>()
        .cursor({ batchSize: BATCH });
      let batch: Parameters<typeof records.bulkWrite>[0] = [];
      let changed = 0;
      const flush = async () => {
        if (batch.length) changed += (await records.bulkWrite(batch, { ordered: false })).modifiedCount;
        batch = [];
      };
      for await (const r of cursor) {
        const set: Record<string, unknown> = { details: scrub(r.details ?? '') };
        if (r.actorId === userId) Object.assign(set, { 'actor.fullName': alias, 'actor.email': '' });
        batch.push({ updateOne: { filter: { _id: r._id }, update: { $set: set } } });
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      return { 'Журнал действий': changed };
    },
  };
}
