import type { Model } from 'mongoose';
import { splitFullName } from '@portal/contracts';
import { op, updateEach, type Logger } from '@portal/service-kit';
import type { UserDoc } from '../models/user';
import type { PresetAccount } from '../presets';

/**
 * Gives every account from before name parts its lastName, firstName and middleName, read from its
 * full name (Фамилия Имя Отчество; a preset account takes the parts its definition names). Runs at
 * start on every replica: it only touches accounts still without parts, in batches of `batch`, so a
 * second run (or a second replica at once) finds nothing or writes the same values.
 */
export async function migrateNameParts(
  users: Model<UserDoc>,
  presets: PresetAccount[],
  logger: Logger,
  batch = 500,
): Promise<number> {
  const presetParts = new Map(presets.filter((p) => p.firstName).map((p) => [p.email.toLowerCase(), p]));
  let migrated = 0;
  for (;;) {
    const rows = await users
      .find({ firstName: op({ $exists: false }) }, { fullName: 1, email: 1 })
      .limit(batch)
      .lean<Array<Pick<UserDoc, '_id' | 'fullName' | 'email'>>>();
    if (!rows.length) break;
    const writes = rows.map((row) => {
      const preset = presetParts.get(row.email);
      const parts = preset
        ? { lastName: preset.lastName ?? '', firstName: preset.firstName ?? '', middleName: preset.middleName ?? '' }
        : splitFullName(row.fullName);
      return { updateOne: { filter: { _id: row._id, firstName: op({ $exists: false }) }, update: { $set: parts } } };
    });
    await updateEach(users, writes);
    migrated += rows.length;
    if (rows.length < batch) break;
  }
  if (migrated) logger.info({ migrated }, 'name parts migrated');
  return migrated;
}
