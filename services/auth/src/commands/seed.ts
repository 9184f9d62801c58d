import type { Model } from 'mongoose';
import { splitFullName } from '@portal/contracts';
import type { Logger } from '@portal/service-kit';
import type { UserDoc } from '../models/user';
import { hashPassword } from '../passwords';
import type { PresetAccount } from '../presets';

/** Creates the preset accounts that are missing; never touches an account that exists. */
export async function seedPresets(users: Model<UserDoc>, presets: PresetAccount[], logger: Logger): Promise<number> {
  let created = 0;
  for (const preset of presets) {
    const email = preset.email.toLowerCase();
    if (await users.exists({ email })) continue;
    const passwordHash = await hashPassword(preset.password);
    try {
      const result = await users.updateOne(
        { email },
        {
          $setOnInsert: {
            email,
            passwordHash,
            fullName: preset.fullName,
            ...(preset.firstName
              ? { lastName: preset.lastName ?? '', firstName: preset.firstName, middleName: preset.middleName ?? '' }
              : splitFullName(preset.fullName)),
            department: '',
            position: '',
            role: preset.role,
            preset: true,
          },
        },
        { upsert: true },
      );
      created += result.upsertedCount;
    } catch (err) {
      // Another replica starting at the same moment inserted it first.
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
  if (created) logger.info({ created }, 'preset accounts created');
  return created;
}
